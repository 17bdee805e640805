import { Fragment } from 'react';
import { Link } from 'react-router';
import { breadcrumbTrail } from '../app/breadcrumbs';
import { useRouteMeta } from '../app/RootLayout';

/** The page's trail (spec §2), drawn like antd's Breadcrumb in plain markup (its ≈2 KB gzip spared). */
export function Breadcrumbs() {
  const handle = useRouteMeta();
  const trail = breadcrumbTrail(handle?.path);
  return (
    <nav className="app-breadcrumb">
      <ol>
        {trail.map((item, i) => (
          <Fragment key={`${item.path ?? ''}|${item.title}`}>
            {i > 0 ? (
              <li className="crumb-separator" aria-hidden>
                /
              </li>
            ) : null}
            <li className="crumb">{item.path ? <Link to={item.path}>{item.title}</Link> : item.title}</li>
          </Fragment>
        ))}
      </ol>
    </nav>
  );
}
