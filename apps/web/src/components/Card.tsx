import type { HTMLAttributes, ReactNode } from 'react';
import { useApp } from '../stores/app';
import './card.css';

/**
 * A card drawn like antd's (title, extra, body; its small size when the settings ask for small
 * components), in plain markup: antd's Card brings its Tabs (for `tabList`), ≈13 KB gzip, to the
 * first dashboard, which uses none of it.
 */
export function Card({
  title,
  extra,
  className,
  children,
  ...rest
}: Omit<HTMLAttributes<HTMLDivElement>, 'title'> & {
  title?: ReactNode;
  extra?: ReactNode;
  [data: `data-${string}`]: string | undefined;
}) {
  const small = useApp((s) => s.size === 'small');
  const classes = ['wxc-card', small ? 'wxc-card-small' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <div className={classes} {...rest}>
      {title || extra ? (
        <div className="wxc-card-head">
          <div className="wxc-card-head-wrapper">
            {title ? <div className="wxc-card-head-title">{title}</div> : null}
            {extra ? <div className="wxc-card-extra">{extra}</div> : null}
          </div>
        </div>
      ) : null}
      <div className="wxc-card-body">{children}</div>
    </div>
  );
}
