/**
 * The markdown page's toolbar as pure edits of a textarea's text and selection: each takes the
 * text and the selected range and answers the new text and the range to select afterwards (what
 * was selected, or the placeholder put in its place, so the next keystroke replaces it).
 */
export interface TextEdit {
  text: string;
  start: number;
  end: number;
}

export type MarkdownAction = 'bold' | 'italic' | 'heading' | 'list' | 'link' | 'code';

/** `before` + selection (or `placeholder`) + `after`, with the inner part selected. */
export function wrapSelection(
  { text, start, end }: TextEdit,
  before: string,
  after: string,
  placeholder: string,
): TextEdit {
  const inner = text.slice(start, end) || placeholder;
  const next = text.slice(0, start) + before + inner + after + text.slice(end);
  const innerStart = start + before.length;
  return { text: next, start: innerStart, end: innerStart + inner.length };
}

/** Every line the selection touches starts with `prefix` (or, if all already do, none does). */
export function toggleLinePrefix({ text, start, end }: TextEdit, prefix: string): TextEdit {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const newline = text.indexOf('\n', end > start && text[end - 1] === '\n' ? end - 1 : end);
  const to = newline === -1 ? text.length : newline;
  const lines = text.slice(from, to).split('\n');
  const remove = lines.every((line) => line.startsWith(prefix));
  const changed = lines.map((line) => (remove ? line.slice(prefix.length) : prefix + line)).join('\n');
  const next = text.slice(0, from) + changed + text.slice(to);
  return { text: next, start: from, end: from + changed.length };
}

export function applyMarkdownAction(edit: TextEdit, action: MarkdownAction): TextEdit {
  switch (action) {
    case 'bold':
      return wrapSelection(edit, '**', '**', '粗体');
    case 'italic':
      return wrapSelection(edit, '*', '*', '斜体');
    case 'heading':
      return toggleLinePrefix(edit, '## ');
    case 'list':
      return toggleLinePrefix(edit, '- ');
    case 'link': {
      const linked = wrapSelection(edit, '[', '](https://)', '链接文字');
      // Select the address, the part still to fill in.
      const urlStart = linked.end + 2;
      return { text: linked.text, start: urlStart, end: urlStart + 'https://'.length };
    }
    case 'code': {
      const selected = edit.text.slice(edit.start, edit.end);
      if (!selected.includes('\n')) return wrapSelection(edit, '`', '`', 'code');
      const atLineStart = edit.start === 0 || edit.text[edit.start - 1] === '\n';
      return wrapSelection(edit, `${atLineStart ? '' : '\n'}\`\`\`\n`, '\n```\n', '');
    }
  }
}
