import { toCanvas } from 'html-to-image';
import { jsPDF } from 'jspdf';
import { pageSlices } from './slices';

/** The margin around each A4 page's content, in points. */
const MARGIN_PT = 36;
/** Content the image cannot load (another site's picture without CORS) becomes a transparent pixel. */
const BLANK_PIXEL = 'data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==';

/**
 * The element as an A4 PDF: drawn into an image by the browser (html-to-image), so Chinese text
 * comes out in the page's own fonts with no CJK font embedded in the PDF, then cut into pages.
 * The element is cloned into an off-screen host at A4 width first, so a phone makes the same PDF.
 */
export async function elementToPdf(element: HTMLElement): Promise<Blob> {
  const host = document.createElement('div');
  host.className = 'pdf-render-host';
  const copy = element.cloneNode(true) as HTMLElement;
  host.append(copy);
  document.body.append(host);
  let canvas: HTMLCanvasElement;
  try {
    // The copy, not the host: html-to-image copies the root's computed style, off-screen position included.
    canvas = await toCanvas(copy, {
      pixelRatio: 2,
      backgroundColor: '#ffffff',
      // The console loads no web fonts; skipping the font scan avoids reading every style sheet.
      skipFonts: true,
      imagePlaceholder: BLANK_PIXEL,
    });
  } finally {
    host.remove();
  }
  const pdf = new jsPDF({ unit: 'pt', format: 'a4', compress: true });
  const width = pdf.internal.pageSize.getWidth() - 2 * MARGIN_PT;
  const height = pdf.internal.pageSize.getHeight() - 2 * MARGIN_PT;
  const ptPerPx = width / canvas.width;
  pageSlices(canvas.height, Math.floor(height / ptPerPx)).forEach((slice, i) => {
    const part = document.createElement('canvas');
    part.width = canvas.width;
    part.height = slice.height;
    part
      .getContext('2d')
      ?.drawImage(canvas, 0, slice.top, canvas.width, slice.height, 0, 0, canvas.width, slice.height);
    if (i > 0) pdf.addPage();
    pdf.addImage(
      part.toDataURL('image/jpeg', 0.92),
      'JPEG',
      MARGIN_PT,
      MARGIN_PT,
      width,
      slice.height * ptPerPx,
    );
  });
  return pdf.output('blob');
}
