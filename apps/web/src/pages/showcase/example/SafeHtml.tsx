/**
 * ⚠ The one place the article pages put HTML into the page.
 *
 * Only two kinds of HTML may come here: an article's rich text as the server returns it (the
 * server sanitises it with an allow-list before storing: no script, no event handlers, no
 * javascript: links), and the summary's preview from ./markdown.ts (raw HTML escaped, unsafe links
 * dropped). Never pass anything else.
 */
export function SafeHtml({ html, className, testId }: { html: string; className?: string; testId?: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised HTML only, see above.
  return <div className={className} data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
}
