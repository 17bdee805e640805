import { Breadcrumb } from 'antd';
import { Link } from 'react-router';
import { breadcrumbTrail } from '../app/breadcrumbs';
import { useRouteMeta } from '../app/RootLayout';

export function Breadcrumbs() {
  const handle = useRouteMeta();
  const trail = breadcrumbTrail(handle?.path);
  return (
    <Breadcrumb
      className="app-breadcrumb"
      items={trail.map((item) => ({
        title: item.path ? <Link to={item.path}>{item.title}</Link> : item.title,
      }))}
    />
  );
}
