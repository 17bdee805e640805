import type { ShowcaseArticle } from '@wxc/contract/calls/showcase';
import { withoutUnsafeFileCharacters } from '../excel/sheet';

/** Elements that start a line of their own. */
const LINES = new Set(['LI', 'TR', 'DIV', 'DT', 'DD']);
/** Elements set apart by a blank line. */
const PARAGRAPHS = new Set([
  'P',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'UL',
  'OL',
  'BLOCKQUOTE',
  'PRE',
  'TABLE',
  'HR',
]);

/**
 * An article's rich text as plain text: paragraphs apart by a blank line, list items on lines of
 * their own marked "- ", table cells separated by tabs. Parsed with DOMParser, whose document is
 * inert (no scripts run, no images load).
 */
export function htmlToText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  let out = '';
  const breakTo = (newlines: number) => {
    out = out.replace(/[ \t]+$/, '');
    if (out === '') return;
    const have = /\n*$/.exec(out)?.[0].length ?? 0;
    if (have < newlines) out += '\n'.repeat(newlines - have);
  };
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = (node.textContent ?? '').replace(/\s+/g, ' ');
      // No double space, and none at the start of a line or a cell.
      out += out === '' || /\s$/.test(out) ? text.trimStart() : text;
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const tag = (node as Element).tagName;
    if (tag === 'SCRIPT' || tag === 'STYLE') return;
    if (tag === 'BR') {
      out = `${out.replace(/[ \t]+$/, '')}\n`;
      return;
    }
    const gap = PARAGRAPHS.has(tag) ? 2 : LINES.has(tag) ? 1 : 0;
    if (gap) breakTo(gap);
    if (tag === 'LI') out += '- ';
    if ((tag === 'TD' || tag === 'TH') && !out.endsWith('\n') && out !== '') out += '\t';
    for (const child of node.childNodes) walk(child);
    if (gap) breakTo(gap);
  };
  walk(doc.body);
  return out.trim();
}

/** One article as a text file: title, then author, date and summary, then the content. */
export function articleText(a: ShowcaseArticle): string {
  const lines = [a.title, '', `作者：${a.author || '—'}`, `日期：${a.display_time}`];
  if (a.content_short) lines.push(`摘要：${a.content_short}`);
  lines.push('', htmlToText(a.content), '');
  return lines.join('\r\n').replace(/(?<!\r)\n/g, '\r\n');
}

/** The article's file name inside the zip: its id first (unique), then the title, safe for any OS. */
export function entryName(a: ShowcaseArticle): string {
  const title = [...withoutUnsafeFileCharacters(a.title).replace(/\s+/g, ' ').trim()]
    .slice(0, 60)
    .join('')
    .replace(/[.\s]+$/, '');
  return `${a.id}-${title || '无标题'}.txt`;
}
