import writeXlsxFile, { type Cell, type SheetData } from 'write-excel-file/browser';
import { saveBlob } from './save-file';
import { type BookType, columnWidths, type SheetRows, toDelimited } from './sheet';

const SHEET = '文章';
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The header row bold, as the template's exports had it. */
const headerCell = (value: string | number | null): Cell =>
  value === null ? null : { value, fontWeight: 'bold' };

/**
 * Writes rows (the first one the header) as an .xlsx, .csv or .txt (tab-separated) file and saves it
 * under `fileName`; `autoWidth` sizes each xlsx column to its widest cell.
 */
export async function exportRows(rows: SheetRows, fileName: string, bookType: BookType, autoWidth: boolean) {
  if (bookType !== 'xlsx') {
    const text = toDelimited(rows, bookType === 'csv' ? ',' : '\t');
    const mime = bookType === 'csv' ? 'text/csv;charset=utf-8' : 'text/plain;charset=utf-8';
    saveBlob(new Blob([text], { type: mime }), fileName);
    return;
  }
  const [header = [], ...body] = rows;
  const data: SheetData = [header.map(headerCell), ...body];
  const columns = autoWidth ? columnWidths(rows).map((width) => ({ width })) : undefined;
  const blob = await writeXlsxFile(data, { sheet: SHEET, columns }).toBlob();
  saveBlob(new Blob([blob], { type: XLSX_MIME }), fileName);
}

/**
 * An .xlsx whose header takes two rows with merged cells: "ID" spans both rows, "主要信息" spans
 * the three columns under it (标题, 作者, 日期), as in the template's merge-header demo.
 */
export async function exportMergedHeader(body: SheetRows, fileName: string) {
  const centred = (value: string, span: { rowSpan?: number; columnSpan?: number }): Cell => ({
    value,
    fontWeight: 'bold',
    align: 'center',
    alignVertical: 'center',
    ...span,
  });
  const data: SheetData = [
    [centred('ID', { rowSpan: 2 }), centred('主要信息', { columnSpan: 3 }), null, null],
    [null, centred('标题', {}), centred('作者', {}), centred('日期', {})],
    ...body,
  ];
  const widths = columnWidths([['ID', '标题', '作者', '日期'], ...body]).map((width) => ({ width }));
  const blob = await writeXlsxFile(data, { sheet: SHEET, columns: widths }).toBlob();
  saveBlob(new Blob([blob], { type: XLSX_MIME }), fileName);
}
