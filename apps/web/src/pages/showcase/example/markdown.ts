import { Marked } from 'marked';

/**
 * The summary's markdown → HTML for its preview (marked, MIT, in the article pages' lazy chunk).
 * What a person types is not trusted: raw HTML in the markdown is shown as text, and links and
 * images keep only http(s), mailto and relative addresses.
 */

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const safeUrl = (href: string) =>
  /^(https?:|mailto:|\/|#|\.{0,2}\/)/i.test(href.trim()) || !/^[a-z][a-z0-9+.-]*:/i.test(href.trim());

const md = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    html({ text }) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }) {
      const inner = this.parser.parseInline(tokens);
      if (!safeUrl(href)) return inner;
      const t = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(href)}"${t} target="_blank" rel="noopener noreferrer nofollow">${inner}</a>`;
    },
    image({ href, text }) {
      if (!safeUrl(href)) return escapeHtml(text);
      return `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}">`;
    },
  },
});

export function renderMarkdown(source: string): string {
  return md.parse(source, { async: false }) as string;
}
