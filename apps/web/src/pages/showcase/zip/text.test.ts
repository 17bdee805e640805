// @vitest-environment happy-dom
import type { ShowcaseArticle } from '@wxc/contract/calls/showcase';
import { describe, expect, it } from 'vitest';
import { articleText, entryName, htmlToText } from './text';

const article = (over: Partial<ShowcaseArticle> = {}): ShowcaseArticle => ({
  id: 7,
  timestamp: 0,
  display_time: '2025-01-06 10:00:00',
  author: '张三',
  reviewer: '',
  title: '标题',
  content_short: '',
  content: '<p>正文</p>',
  forecast: 0,
  importance: 1,
  type: 'CN',
  status: 'draft',
  comment_disabled: false,
  pageviews: 1,
  image_uri: '',
  source_uri: '',
  platforms: [],
  ...over,
});

describe('htmlToText', () => {
  it('puts blocks on lines, marks list items, keeps inline text together', () => {
    expect(
      htmlToText(
        '<p>First <strong>bold</strong> text.</p>\n<ul>\n <li>one</li><li> two</li></ul><p>a<br>b</p>',
      ),
    ).toBe('First bold text.\n\n- one\n- two\n\na\nb');
  });
  it('drops markup that is not text, and entities come out as characters', () => {
    expect(htmlToText('<p>1 &lt; 2 &amp; 3</p><script>alert(1)</script><style>p{}</style>')).toBe(
      '1 < 2 & 3',
    );
  });
});

describe('articleText', () => {
  it('writes the title, author, date, summary and content with CRLF line ends', () => {
    expect(articleText(article({ content_short: '摘要一句', content: '<p>甲</p><p>乙</p>' }))).toBe(
      '标题\r\n\r\n作者：张三\r\n日期：2025-01-06 10:00:00\r\n摘要：摘要一句\r\n\r\n甲\r\n\r\n乙\r\n',
    );
  });
});

describe('entryName', () => {
  it('starts with the id and keeps the name safe', () => {
    expect(entryName(article({ title: 'a/b: c?' }))).toBe('7-a_b_ c_.txt');
    expect(entryName(article({ title: '  ' }))).toBe('7-无标题.txt');
    expect(entryName(article({ title: 'x'.repeat(100) }))).toBe(`7-${'x'.repeat(60)}.txt`);
  });
});
