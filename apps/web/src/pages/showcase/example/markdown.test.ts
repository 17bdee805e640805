import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('summary markdown', () => {
  it('renders markdown', () => {
    expect(renderMarkdown('**粗体** 与 *斜体*')).toContain('<strong>粗体</strong>');
    expect(renderMarkdown('- 一\n- 二')).toContain('<li>一</li>');
  });

  it('shows raw HTML as text and drops unsafe links', () => {
    const html = renderMarkdown(
      '<img src=x onerror=alert(1)> [点我](javascript:alert(1)) [好](https://example.com)',
    );
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="https://example.com"');
    expect(renderMarkdown('![x](javascript:alert(1))')).not.toContain('<img');
  });
});
