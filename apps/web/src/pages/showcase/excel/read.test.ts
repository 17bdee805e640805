import { describe, expect, it } from 'vitest';
import { toTable, WORKBOOK_MAX_BYTES, workbookProblem } from './read';

const bytes = (...b: number[]) => new Uint8Array(b);

describe('workbookProblem', () => {
  it('accepts a zip (an .xlsx is one), whatever the name', () => {
    expect(workbookProblem(100, bytes(0x50, 0x4b, 0x03, 0x04))).toBeNull();
  });
  it('refuses empty, too large, old .xls and anything else, in words', () => {
    expect(workbookProblem(0, bytes())).toMatch('空');
    expect(workbookProblem(WORKBOOK_MAX_BYTES + 1, bytes(0x50, 0x4b, 0x03, 0x04))).toMatch('超过 5 MB');
    expect(workbookProblem(100, bytes(0xd0, 0xcf, 0x11, 0xe0))).toMatch('.xls');
    expect(workbookProblem(5, new TextEncoder().encode('hello'))).toMatch('不是 Excel 工作簿');
  });
});

describe('toTable', () => {
  it('takes the header row as columns and pads short rows', () => {
    expect(
      toTable([
        ['ID', '标题', null],
        [1, 'a', 'x'],
        [2, null],
      ]),
    ).toEqual({
      columns: ['ID', '标题', '第 3 列'],
      rows: [
        ['1', 'a', 'x'],
        ['2', '', ''],
      ],
      total: 2,
    });
  });
});
