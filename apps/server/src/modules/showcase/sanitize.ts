import sanitizeHtml from 'sanitize-html';

/**
 * The articles' rich text, cleaned on the server before it is stored (sanitize-html, an allow-list):
 * the formatting a rich-text editor produces is kept; scripts, styles sheets, frames, forms, event
 * handler attributes (`onerror`, `onclick`, …), `javascript:` and `data:` links are dropped. Inline
 * styles keep only alignment, colours and a few text properties with plain values.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'h1',
    'h2',
    'span',
    'u',
    's',
    'del',
    'ins',
    'sub',
    'sup',
    'mark',
  ],
  allowedAttributes: {
    a: ['href', 'name', 'target', 'rel', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    ol: ['start'],
    '*': ['style'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  allowedStyles: {
    '*': {
      'text-align': [/^(left|right|center|justify)$/],
      color: [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i],
      'background-color': [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i],
      'font-weight': [/^(normal|bold|[1-9]00)$/],
      'font-style': [/^(normal|italic)$/],
      'text-decoration': [/^(none|underline|line-through)$/],
      'font-size': [/^\d{1,3}(px|pt|em|rem|%)$/],
    },
  },
  // A link that opens elsewhere cannot reach back into the console.
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
  },
};

export const sanitizeRichText = (html: string): string => sanitizeHtml(html, OPTIONS);
