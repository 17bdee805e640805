import { describe, expect, it } from 'vitest';
import { applyMarkdownAction, type TextEdit, toggleLinePrefix, wrapSelection } from './markdown-edit';

/** The text with the selection marked as [ and ], e.g. 'a[b]c'. */
const show = ({ text, start, end }: TextEdit) =>
  `${text.slice(0, start)}[${text.slice(start, end)}]${text.slice(end)}`;
const at = (marked: string): TextEdit => {
  const start = marked.indexOf('[');
  const end = marked.indexOf(']') - 1;
  return { text: marked.replace('[', '').replace(']', ''), start, end };
};

describe('markdown toolbar edits', () => {
  it('wraps the selection and keeps it selected', () => {
    expect(show(wrapSelection(at('甲[乙]丙'), '**', '**', 'x'))).toBe('甲**[乙]**丙');
  });

  it('puts a selected placeholder where nothing is selected', () => {
    expect(show(applyMarkdownAction(at('说[]'), 'bold'))).toBe('说**[粗体]**');
    expect(show(applyMarkdownAction(at('[]'), 'italic'))).toBe('*[斜体]*');
  });

  it('prefixes every line the selection touches, and removes the prefix the second time', () => {
    const once = toggleLinePrefix(at('一\n二[行\n三]行\n四'), '- ');
    expect(show(once)).toBe('一\n[- 二行\n- 三行]\n四');
    expect(show(toggleLinePrefix(once, '- '))).toBe('一\n[二行\n三行]\n四');
    expect(show(applyMarkdownAction(at('标[]题'), 'heading'))).toBe('[## 标题]');
  });

  it('a link selects its address, still to be filled in', () => {
    expect(show(applyMarkdownAction(at('看[文档]'), 'link'))).toBe('看[文档]([https://])');
  });

  it('code: inline for one line, a fenced block for several', () => {
    expect(show(applyMarkdownAction(at('用 [npm]'), 'code'))).toBe('用 `[npm]`');
    expect(show(applyMarkdownAction(at('[a\nb]'), 'code'))).toBe('```\n[a\nb]\n```\n');
    expect(show(applyMarkdownAction(at('x[a\nb]'), 'code'))).toBe('x\n```\n[a\nb]\n```\n');
  });
});
