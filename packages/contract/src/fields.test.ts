import { describe, expect, it } from 'vitest';
import { companyNameField, textField, userNameField } from './fields.js';

const first = (
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } },
  v: unknown,
) => {
  const r = schema.safeParse(v);
  return r.success ? undefined : r.error!.issues[0]!.message;
};

describe('textField: the one rule for names, remarks and notes', () => {
  const name = textField('名称', { max: 10 });

  it('keeps ordinary text: Chinese, spaces inside, emoji (with ZWJ sequences), other scripts', () => {
    for (const ok of [
      '张 三',
      '张\u3000三',
      '上海某某科技',
      '小王😀',
      '👨‍👩‍👧 家',
      '🏳️‍🌈',
      '👩🏽‍💻',
      '❤️‍🔥',
      'O’Brien',
      'Zoë',
      'مرحبا',
      'a+b=c (1)',
    ]) {
      expect(name.parse(ok), ok).toBe(ok);
    }
  });

  it('trims, and refuses empty when required', () => {
    expect(name.parse('  张三  ')).toBe('张三');
    expect(name.parse('\n\t张三\u3000')).toBe('张三');
    expect(first(name, '')).toBe('请输入名称');
    expect(first(name, '   ')).toBe('请输入名称');
    expect(first(name, undefined)).toBe('请输入名称');
    expect(first(name, 42)).toBe('请输入名称');
    const optional = textField('备注', { min: 0, max: 5 });
    expect(optional.parse('  ')).toBe('');
    const atLeastTwo = textField('公司名称', { min: 2, max: 5 });
    expect(first(atLeastTwo, ' A ')).toBe('公司名称至少 2 个字符');
  });

  it('enforces the maximum length, naming the field', () => {
    expect(name.parse('十'.repeat(10))).toBe('十'.repeat(10));
    expect(first(name, '十'.repeat(11))).toBe('名称不能超过 10 个字符');
  });

  it('refuses control characters, wherever they are', () => {
    for (const c of ['\u0000', '\u0007', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009b']) {
      expect(first(name, `张${c}三`), JSON.stringify(c)).toBe('名称不能包含控制字符或不可见的格式字符');
    }
  });

  it('refuses bidi controls and other invisible format characters', () => {
    const format = [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e', // right-to-left override
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e', // LRM
      '\u200f', // RLM
      '\u061c', // Arabic letter mark
      '\u200b', // zero-width space
      '\u200c', // ZWNJ
      '\u2060', // word joiner
      '\ufeff', // BOM inside the text
      '\u00ad', // soft hyphen
      '\u2028', // line separator
      '\u2029', // paragraph separator
      '\u{e0041}', // tag character
      '\ufff9', // interlinear annotation
    ];
    for (const c of format) {
      expect(first(name, `ab${c}cd`), c.codePointAt(0)!.toString(16)).toBe(
        '名称不能包含控制字符或不可见的格式字符',
      );
    }
  });

  it('allows ZWJ only between two emoji', () => {
    for (const bad of ['a\u200db', '张\u200d三', '\u200d😀', '😀\u200d', '😀\u200d\u200d😀', 'a\u200d😀']) {
      expect(first(name, bad), JSON.stringify(bad)).toBe('名称不能包含控制字符或不可见的格式字符');
    }
  });

  it('refuses lone surrogates', () => {
    for (const bad of ['\ud800', 'a\udc00b', '张\udbff', '\udfff😀']) {
      expect(first(name, bad), JSON.stringify(bad)).toBe('名称包含无效的字符编码');
    }
    expect(name.parse('𠮷野家')).toBe('𠮷野家'); // a well-formed pair outside the BMP
  });

  it('multiline fields keep line breaks (CRLF becomes LF) and refuse everything else', () => {
    const note = textField('备注', { min: 0, max: 20, multiline: true });
    expect(note.parse('第一行\n第二行')).toBe('第一行\n第二行');
    expect(note.parse('第一行\r\n第二行\r第三行')).toBe('第一行\n第二行\n第三行');
    for (const bad of ['a\u0000', 'a\tb', 'a\u202eb', 'a\u2028b', '\ud800']) {
      expect(first(note, bad), JSON.stringify(bad)).toMatch(/^备注(不能包含控制字符|包含无效的字符编码)/);
    }
  });

  it('backs the shared company and user name fields', () => {
    expect(first(companyNameField, '甲\u202e公司')).toBe('公司名称不能包含控制字符或不可见的格式字符');
    expect(first(userNameField, '张\u0000三')).toBe('用户名不能包含控制字符或不可见的格式字符');
    expect(companyNameField.parse(' 上海 某某 科技 🚀 ')).toBe('上海 某某 科技 🚀');
    expect(first(companyNameField, 'A')).toBe('公司名称至少 2 个字符');
    expect(first(userNameField, 'x'.repeat(31))).toBe('用户名不能超过 30 个字符');
  });
});
