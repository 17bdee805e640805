import type { ReactNode } from 'react';
import { useRouteMeta } from '../app/RootLayout';
import './page-header.css';

export interface PageHeaderProps {
  /** Defaults to the route's title (the same one the menu, tab, breadcrumbs and document title use). */
  title?: ReactNode;
  /** One line under the title. */
  subtitle?: ReactNode;
  /** Shown right after the title (e.g. the live-update badge). */
  tag?: ReactNode;
  /** Actions on the right; they wrap under the title on narrow screens. */
  extra?: ReactNode;
}

/**
 * The one header of every page in the shell: the page's title as its only <h1>, an optional
 * subtitle, a tag beside the title and actions on the right. Pages put their cards below it.
 */
export function PageHeader({ title, subtitle, tag, extra }: PageHeaderProps) {
  const handle = useRouteMeta();
  return (
    <header className="page-header" data-testid="page-header">
      <div className="page-header-main">
        <div className="page-header-heading">
          <h1 className="page-header-title">{title ?? handle?.meta.title}</h1>
          {tag ? <span className="page-header-tag">{tag}</span> : null}
        </div>
        {subtitle ? <p className="page-header-subtitle">{subtitle}</p> : null}
      </div>
      {extra ? <div className="page-header-extra">{extra}</div> : null}
    </header>
  );
}
