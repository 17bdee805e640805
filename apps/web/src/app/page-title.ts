/** Spec §2: '{page title} - {product title}'. */
export function pageTitle(title: string | undefined, productTitle: string): string {
  return title ? `${title} - ${productTitle}` : productTitle;
}
