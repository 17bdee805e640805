import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Download, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  type Company,
  go,
  MOBILE,
  noPageOverflow,
  onPage,
  openPage,
  screenshot,
  see,
  seedCompany,
  settle,
  useSuite,
} from './harness';

/**
 * The showcase's file pages (issue 16, "Excel, Zip and PDF"), as a customer: xlsx / csv export of
 * the articles read back on the upload page, export of the selected rows only, the two-row merged
 * header, a false workbook refused, the zip with one .txt per article, a real PDF, and the print
 * view calling window.print(); then every page at 375 px without sideways scrolling.
 */
const suite = useSuite({ SHOWCASE: 'true' });
let company: Company;
/** An article of the test's own, with what a csv must quote (a comma, quotes) and Chinese. */
const OWN_TITLE = '报表, "引号" 测试';

beforeAll(async () => {
  company = await seedCompany(suite.server);
  const created = await fetch(`${suite.server.baseUrl}/vue-element-admin/article/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: company.token },
    body: JSON.stringify({
      title: OWN_TITLE,
      author: '测试作者',
      content: '<p>第一段正文</p><ul><li>要点一</li><li>要点二</li></ul>',
      status: 'published',
    }),
  });
  expect(created.status).toBe(200);
});

/** Clicks and returns the download it starts, with its bytes. */
async function downloadOf(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: (download as Download).suggestedFilename(), bytes: await readFile(await download.path()) };
}

/**
 * Puts a file on the upload page, picked in the file dialog or dropped onto the drop zone (a real
 * drop event carrying the file), and answers the table's header and rows as read back.
 */
async function uploadAndRead(page: Page, name: string, bytes: Buffer, via: 'pick' | 'drop' = 'pick') {
  await go(page, '/excel/upload-excel');
  await onPage(page, '上传 Excel');
  const root = page.getByTestId('upload-excel-page');
  if (via === 'pick') {
    await root
      .locator('input[type=file]')
      .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: bytes });
  } else {
    await root.locator('.ant-upload-drag .ant-upload-btn').evaluate(
      (zone, file) => {
        const data = new DataTransfer();
        data.items.add(new File([Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))], file.name));
        for (const type of ['dragenter', 'dragover', 'drop']) {
          zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
        }
      },
      { name, base64: bytes.toString('base64') },
    );
  }
  await see(root.getByTestId('excel-file-meta').getByText(name));
  const table = root.getByRole('table', { name: '工作表内容' });
  const header = (await table.locator('thead th').allTextContents()).map((t) => t.trim());
  const rows = await table
    .locator('tbody tr.ant-table-row')
    .evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')),
    );
  return { header, rows };
}

describe('showcase files: excel, zip, pdf', () => {
  it('as a customer: export, re-import, selected rows, merged header, zip, PDF, print view', async () => {
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = t;

    // Export Excel: every article, as xlsx (named by the user), then as csv.
    await page.goto('/excel/export-excel');
    await onPage(page, '导出 Excel');
    const exportPage = page.getByTestId('export-excel-page');
    const articles = exportPage.getByRole('table', { name: '文章列表' });
    await see(articles.getByText(OWN_TITLE, { exact: true }));
    const titles = (await articles.locator('tbody tr.ant-table-row td:nth-child(2)').allTextContents()).map(
      (s) => s.trim(),
    );
    expect(titles.length).toBe(9);
    await exportPage.getByLabel('文件名').fill('e2e-报表');
    await settle(page);
    await screenshot(page, 'showcase-export-excel-1440');
    const xlsx = await downloadOf(page, () => exportPage.getByRole('button', { name: /导出 Excel/ }).click());
    expect(xlsx.name).toBe('e2e-报表.xlsx');
    expect(xlsx.bytes.subarray(0, 2).toString()).toBe('PK');
    const sheet = strFromU8(unzipSync(xlsx.bytes)['xl/worksheets/sheet1.xml'] ?? new Uint8Array());
    expect(sheet).toMatch(/<col [^>]*width=/); // auto column width

    await exportPage.getByRole('combobox', { name: '文件类型' }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="csv"]').click();
    const csv = await downloadOf(page, () => exportPage.getByRole('button', { name: /导出 Excel/ }).click());
    expect(csv.name).toBe('e2e-报表.csv');
    const csvText = csv.bytes.toString('utf8');
    expect(csvText.startsWith('\uFEFFID,标题,作者,阅读数,日期\r\n')).toBe(true);
    expect(csvText).toContain('"报表, ""引号"" 测试",测试作者');
    for (const title of titles.filter((s) => s !== OWN_TITLE)) expect(csvText).toContain(title);
    expect(csvText.trimEnd().split('\r\n')).toHaveLength(10);

    // Upload Excel: the exported workbook reads back with the same header and titles.
    const back = await uploadAndRead(page, xlsx.name, xlsx.bytes);
    expect(back.header).toEqual(['ID', '标题', '作者', '阅读数', '日期']);
    expect(back.rows.map((r) => r[1])).toEqual(titles);
    await settle(page);
    await screenshot(page, 'showcase-upload-excel-1440');
    // A text file named .xlsx is refused in words.
    const uploadPage = page.getByTestId('upload-excel-page');
    await uploadPage
      .locator('input[type=file]')
      .setInputFiles({ name: 'fake.xlsx', mimeType: 'text/plain', buffer: Buffer.from('not a workbook') });
    await see(uploadPage.getByTestId('excel-error').getByText('这不是 Excel 工作簿：只支持 .xlsx 文件'));
    expect(await uploadPage.getByRole('table', { name: '工作表内容' }).count()).toBe(0);
    await uploadPage
      .locator('input[type=file]')
      .setInputFiles({ name: 'empty.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.alloc(0) });
    await see(uploadPage.getByTestId('excel-error').getByText(/文件是空的/));
    await settle(page);
    await screenshot(page, 'showcase-upload-excel-error-1440');

    // Export selected: nothing ticked is told; two ticked rows export alone.
    await go(page, '/excel/export-selected-excel');
    await onPage(page, '导出 已选择项');
    const selectedPage = page.getByTestId('export-selected-page');
    const selectable = selectedPage.getByRole('table', { name: '文章列表' });
    await see(selectable.getByText(OWN_TITLE, { exact: true }));
    await selectedPage.getByRole('button', { name: /导出已选择项/ }).click();
    await see(page.getByText('请先在表格中勾选要导出的文章'));
    const picked = [titles[1] as string, OWN_TITLE];
    for (const title of picked) {
      await selectable
        .locator('tr', { has: page.getByText(title, { exact: true }) })
        .locator('.ant-checkbox')
        .click();
    }
    await see(selectedPage.getByTestId('selected-count').getByText('已选 2 篇'));
    await settle(page);
    await screenshot(page, 'showcase-export-selected-1440');
    const chosen = await downloadOf(page, () =>
      selectedPage.getByRole('button', { name: /导出已选择项/ }).click(),
    );
    expect(chosen.name).toBe('已选文章.xlsx');
    const chosenBack = await uploadAndRead(page, chosen.name, chosen.bytes);
    expect(chosenBack.rows.map((r) => r[1])).toEqual(picked);

    // Merge header: ID over two rows, 主要信息 over three columns, in the file and read back (dropped).
    await go(page, '/excel/export-merge-header');
    await onPage(page, '导出 多级表头');
    const mergePage = page.getByTestId('export-merge-header-page');
    await see(mergePage.getByText(OWN_TITLE, { exact: true }));
    await settle(page);
    await screenshot(page, 'showcase-export-merge-header-1440');
    const merged = await downloadOf(page, () =>
      mergePage.getByRole('button', { name: /导出多级表头/ }).click(),
    );
    const mergedSheet = strFromU8(unzipSync(merged.bytes)['xl/worksheets/sheet1.xml'] ?? new Uint8Array());
    expect(mergedSheet).toContain('<mergeCell ref="A1:A2"/>');
    expect(mergedSheet).toContain('<mergeCell ref="B1:D1"/>');
    const mergedBack = await uploadAndRead(page, merged.name, merged.bytes, 'drop');
    expect(mergedBack.header.slice(0, 2)).toEqual(['ID', '主要信息']);
    expect(mergedBack.rows[0]?.slice(1)).toEqual(['标题', '作者', '日期']);
    expect(mergedBack.rows.slice(1).map((r) => r[1])).toEqual(titles);

    // Zip: one .txt per article, under the user's file name.
    await go(page, '/zip/download');
    await onPage(page, 'Export Zip');
    const zipPage = page.getByTestId('zip-download-page');
    await see(zipPage.getByText(OWN_TITLE, { exact: true }));
    await zipPage.getByLabel('文件名').fill('e2e-文章包');
    await settle(page);
    await screenshot(page, 'showcase-zip-1440');
    const zip = await downloadOf(page, () => zipPage.getByRole('button', { name: /导出 Zip/ }).click());
    expect(zip.name).toBe('e2e-文章包.zip');
    const entries = unzipSync(zip.bytes);
    const names = Object.keys(entries);
    expect(names).toHaveLength(titles.length);
    expect(names.every((n) => n.endsWith('.txt'))).toBe(true);
    const texts = Object.values(entries).map((bytes) => strFromU8(bytes));
    expect(texts.map((s) => s.split('\r\n')[0]).sort()).toEqual([...titles].sort());
    const own = texts.find((s) => s.startsWith(OWN_TITLE)) ?? '';
    expect(own).toContain('作者：测试作者');
    expect(own).toContain('第一段正文\r\n\r\n- 要点一\r\n- 要点二');

    // PDF: the article as a document; 下载 PDF makes a real PDF in the browser.
    await go(page, '/pdf/index');
    await onPage(page, 'PDF');
    const pdfPage = page.getByTestId('pdf-page');
    await see(pdfPage.getByTestId('pdf-doc').getByRole('heading', { name: titles[0] }));
    await settle(page);
    await screenshot(page, 'showcase-pdf-1440');
    const pdf = await downloadOf(page, () => pdfPage.getByRole('button', { name: /下载 PDF/ }).click());
    expect(pdf.name.endsWith('.pdf')).toBe(true);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.bytes.length).toBeGreaterThan(10_000); // the page's image is in it
    await mkdir(ARTIFACTS, { recursive: true });
    await writeFile(path.join(ARTIFACTS, 'showcase-article.pdf'), pdf.bytes);
    expect(await pdfPage.getByRole('link', { name: /打印视图/ }).getAttribute('href')).toMatch(
      /^\/pdf\/download\?id=\d+$/,
    );
    t.assertNoErrors();

    // The print view: window.print() is called once the article is on screen; printing leaves the shell out.
    const printTab = await t.context.newPage();
    printTab.on('console', (msg) => {
      if (msg.type() === 'error') t.errors.push(`print view console: ${msg.text()}`);
    });
    printTab.on('pageerror', (err) => t.errors.push(`print view pageerror: ${err.message}`));
    await printTab.addInitScript(() => {
      const w = window as unknown as { printed: number };
      w.printed = 0;
      window.print = () => {
        w.printed += 1;
      };
    });
    await printTab.goto('/pdf/download?id=1');
    await onPage(printTab, 'PDF 打印');
    await see(printTab.getByTestId('pdf-doc').getByRole('heading', { name: titles[0] }));
    await printTab.waitForFunction(() => (window as unknown as { printed: number }).printed === 1);
    await settle(printTab);
    await screenshot(printTab, 'showcase-pdf-print-1440');
    await printTab.emulateMedia({ media: 'print' });
    expect(await printTab.locator('.sidebar').isVisible()).toBe(false);
    expect(await printTab.locator('.navbar').isVisible()).toBe(false);
    expect(await printTab.getByTestId('pdf-doc').isVisible()).toBe(true);
    // On paper the document starts at the top left, not where the shell's boxes put it.
    const onPaper = await printTab.getByTestId('pdf-doc').boundingBox();
    expect(onPaper?.x).toBe(0);
    expect(onPaper?.y).toBe(0);
    await screenshot(printTab, 'showcase-pdf-print-media');
    expect(await printTab.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    t.assertNoErrors();
    await t.close();
  });

  it('every file page at 375 px without sideways scrolling', async () => {
    const m = await openPage(suite.browser, suite.server, { token: company.token, viewport: MOBILE });
    const { page } = m;
    await page.goto('/excel/export-excel');
    const pages: [string, string, string][] = [
      ['/excel/export-excel', '导出 Excel', 'export-excel-page'],
      ['/excel/export-selected-excel', '导出 已选择项', 'export-selected-page'],
      ['/excel/export-merge-header', '导出 多级表头', 'export-merge-header-page'],
      ['/excel/upload-excel', '上传 Excel', 'upload-excel-page'],
      ['/zip/download', 'Export Zip', 'zip-download-page'],
      ['/pdf/index', 'PDF', 'pdf-page'],
    ];
    for (const [path, title, testId] of pages) {
      await go(page, path);
      await onPage(page, title);
      await see(page.getByTestId(testId));
      await settle(page);
      await noPageOverflow(page, `${path} scrolls sideways at 375 px`);
      await screenshot(page, `showcase-${testId}-375`);
    }
    const pdf = await downloadOf(page, () =>
      page
        .getByTestId('pdf-page')
        .getByRole('button', { name: /下载 PDF/ })
        .click(),
    );
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    await page.addInitScript(() => {
      window.print = () => {};
    });
    await page.goto('/pdf/download?id=1');
    await onPage(page, 'PDF 打印');
    await see(page.getByTestId('pdf-doc'));
    await settle(page);
    await noPageOverflow(page, '/pdf/download scrolls sideways at 375 px');
    await screenshot(page, 'showcase-pdf-print-375');
    m.assertNoErrors();
    await m.close();
  });
});
