import type { ShowcaseArticle } from '@wxc/contract/calls/showcase';

/** What a spreadsheet cell holds here: text, a number, or nothing. */
export type CellValue = string | number | null;
export type SheetRows = CellValue[][];

export type BookType = 'xlsx' | 'csv' | 'txt';
export const BOOK_TYPES: readonly BookType[] = ['xlsx', 'csv', 'txt'];

/** The article columns of the exports, in order (the template's Id, Title, Author, Readings, Date). */
export const ARTICLE_HEADER = ['ID', '标题', '作者', '阅读数', '日期'] as const;

export function articleRow(a: ShowcaseArticle): CellValue[] {
  return [a.id, a.title, a.author, a.pageviews, a.display_time];
}

/**
 * How wide a value shows, in Excel's "characters": CJK and other full-width characters take two.
 * (Excel measures widths in the digit width of its default font; a Chinese character is about two.)
 */
export function displayWidth(value: CellValue): number {
  if (value === null) return 0;
  let width = 0;
  for (const ch of String(value)) {
    width +=
      /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{3fffd}]/u.test(
        ch,
      )
        ? 2
        : 1;
  }
  return width;
}

const MIN_WIDTH = 6;
const MAX_WIDTH = 60;

/** Each column's width: its widest cell plus a margin, kept between 6 and 60 characters. */
export function columnWidths(rows: SheetRows): number[] {
  const count = Math.max(0, ...rows.map((r) => r.length));
  return Array.from({ length: count }, (_, col) => {
    const widest = Math.max(0, ...rows.map((r) => displayWidth(r[col] ?? null)));
    return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, widest + 2));
  });
}

/**
 * A text cell that a spreadsheet would take for a formula (`=`, `+`, `-`, `@`, or a leading tab or
 * carriage return: OWASP's "CSV injection") gets a leading apostrophe, so it opens as text.
 * Article titles are typed by users; a csv opened in Excel must not run them.
 */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function delimitedField(value: CellValue, delimiter: string): string {
  if (value === null) return '';
  const text = typeof value === 'number' ? String(value) : neutraliseFormula(value);
  // RFC 4180: a field with the delimiter, a quote or a line break is quoted, its quotes doubled.
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Rows as delimited text (RFC 4180: CRLF line ends, quoting as needed), with a UTF-8 byte order
 * mark in front: without it Excel reads the file in the system's code page and garbles Chinese.
 */
export function toDelimited(rows: SheetRows, delimiter: ',' | '\t'): string {
  return `\uFEFF${rows.map((row) => row.map((v) => delimitedField(v, delimiter)).join(delimiter)).join('\r\n')}\r\n`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are among those removed.
const UNSAFE_FILE_CHARACTERS = /[\\/:*?"<>|\u0000-\u001f\u007f]/g;

/** Characters that Windows, macOS or Linux refuse in a file name (and control characters) as "_". */
export function withoutUnsafeFileCharacters(name: string): string {
  return name.replace(UNSAFE_FILE_CHARACTERS, '_');
}

/**
 * The name a download is saved under: what the user typed (or the fallback), without characters
 * that file systems refuse, at most 80 characters, with the extension added once.
 */
export function fileNameFor(typed: string, extension: string, fallback: string): string {
  const suffix = `.${extension}`;
  let base = typed.trim();
  if (base.toLowerCase().endsWith(suffix)) base = base.slice(0, -suffix.length);
  base = withoutUnsafeFileCharacters(base).replace(/^[.\s]+|[.\s]+$/g, '');
  base = [...base].slice(0, 80).join('');
  return `${base || fallback}${suffix}`;
}

/** A cell read back from a workbook, as the table shows it. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    return Number.isNaN(value.getTime())
      ? ''
      : value
          .toISOString()
          .replace('T', ' ')
          .replace(/\.000Z$|Z$/, '');
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}
