import { describe, expect, it } from 'vitest';
import { cellText, columnWidths, displayWidth, fileNameFor, neutraliseFormula, toDelimited } from './sheet';

describe('toDelimited', () => {
  it('writes a BOM, CRLF lines and RFC 4180 quoting', () => {
    const text = toDelimited(
      [
        ['ID', '标题'],
        [1, 'a, b'],
        [2, 'say "hi"'],
        [3, 'two\nlines'],
        [4, null],
      ],
      ',',
    );
    expect(text).toBe('\uFEFFID,标题\r\n1,"a, b"\r\n2,"say ""hi"""\r\n3,"two\nlines"\r\n4,\r\n');
  });

  it('quotes on the tab for txt, not on commas', () => {
    expect(toDelimited([['a,b', 'c\td']], '\t')).toBe('\uFEFFa,b\t"c\td"\r\n');
  });

  it('keeps a text cell from opening as a formula, numbers untouched', () => {
    expect(toDelimited([['=1+1', '@SUM(A1)', -5, '+86 138']], ',')).toBe(
      "\uFEFF'=1+1,'@SUM(A1),-5,'+86 138\r\n",
    );
    expect(neutraliseFormula('-x')).toBe("'-x");
    expect(neutraliseFormula('普通标题')).toBe('普通标题');
  });
});

describe('columnWidths', () => {
  it('counts CJK characters twice, adds a margin, clamps to 6–60', () => {
    expect(displayWidth('标题ab')).toBe(6);
    expect(displayWidth(12345)).toBe(5);
    expect(
      columnWidths([
        ['ID', '标题', 'x'],
        [1, '一篇很长的中文文章标题', null],
        [2, 'y'.repeat(100)],
      ]),
    ).toEqual([6, 60, 6]);
    expect(columnWidths([])).toEqual([]);
  });
});

describe('fileNameFor', () => {
  it('adds the extension once, drops unsafe characters, falls back when blank', () => {
    expect(fileNameFor('报表', 'xlsx', '文章列表')).toBe('报表.xlsx');
    expect(fileNameFor('报表.XLSX', 'xlsx', '文章列表')).toBe('报表.xlsx');
    expect(fileNameFor('  ', 'csv', '文章列表')).toBe('文章列表.csv');
    expect(fileNameFor('a/b:c*?"<>|\u0001', 'txt', 'f')).toBe('a_b_c_______.txt');
    expect(fileNameFor('..', 'zip', '文章')).toBe('文章.zip');
    expect(fileNameFor('长'.repeat(100), 'pdf', 'x')).toBe(`${'长'.repeat(80)}.pdf`);
  });
});

describe('cellText', () => {
  it('shows what a workbook cell holds as text', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(42)).toBe('42');
    expect(cellText(true)).toBe('TRUE');
    expect(cellText(new Date(Date.UTC(2025, 0, 6, 2, 0, 0)))).toBe('2025-01-06 02:00:00');
  });
});
