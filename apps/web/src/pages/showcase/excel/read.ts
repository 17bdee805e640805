import { readSheet } from 'read-excel-file/universal';
import { cellText } from './sheet';

/** The largest workbook the page reads (it is read whole, in the browser). */
export const WORKBOOK_MAX_BYTES = 5 * 1024 * 1024;
/** Rows shown at most (a sheet with more shows its first ones and says so). */
export const ROWS_MAX = 5000;

/** A workbook the page refuses, with the reason in words for the user. */
export class WorkbookError extends Error {}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0];
const startsWith = (head: Uint8Array, magic: number[]) => magic.every((b, i) => head[i] === b);

/**
 * Why a file cannot be an .xlsx workbook, from its size and first bytes (an .xlsx is a zip archive;
 * its name proves nothing), or null when it may be one.
 */
export function workbookProblem(size: number, head: Uint8Array): string | null {
  if (size === 0) return '文件是空的，请选择一个 Excel 工作簿（.xlsx）';
  if (size > WORKBOOK_MAX_BYTES) return `文件超过 ${WORKBOOK_MAX_BYTES / 1024 / 1024} MB，请选择更小的工作簿`;
  if (startsWith(head, OLE))
    return '这是旧版 Excel 文件（.xls），暂不支持：请在 Excel 中另存为 .xlsx 后再上传';
  if (!startsWith(head, ZIP)) return '这不是 Excel 工作簿：只支持 .xlsx 文件';
  return null;
}

export interface SheetTable {
  columns: string[];
  rows: string[][];
  /** Data rows in the sheet (more than `rows` holds when cut at ROWS_MAX). */
  total: number;
}

/** The header row as column titles (a blank one named by its position) and the rest as rows of text. */
export function toTable(data: unknown[][]): SheetTable {
  const [header = [], ...body] = data;
  const width = Math.max(header.length, ...body.map((r) => r.length));
  const columns = Array.from({ length: width }, (_, i) => cellText(header[i]).trim() || `第 ${i + 1} 列`);
  const rows = body.slice(0, ROWS_MAX).map((r) => Array.from({ length: width }, (_, i) => cellText(r[i])));
  return { columns, rows, total: body.length };
}

/** Reads the first sheet of an .xlsx file into a table; refuses anything else with a WorkbookError. */
export async function readWorkbook(file: Blob): Promise<SheetTable> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  const problem = workbookProblem(file.size, head);
  if (problem) throw new WorkbookError(problem);
  let data: unknown[][];
  try {
    data = await readSheet(file);
  } catch {
    throw new WorkbookError('无法读取这个工作簿：文件已损坏或不是有效的 .xlsx');
  }
  if (data.length === 0 || data.every((row) => row.every((cell) => cellText(cell) === ''))) {
    throw new WorkbookError('工作簿的第一个工作表是空的');
  }
  return toTable(data);
}
