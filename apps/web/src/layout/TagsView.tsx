import { CloseOutlined } from '@ant-design/icons';
import { TAGS_CONTEXT_MENU_WIDTH_PX, TAGS_SCROLL_PADDING_PX } from '@wxc/contract/constants';
import { type MouseEvent, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { refreshPath } from '../app/redirect-route';
import { useTags } from '../stores/tags';
import { type CloseResult, closeAll, closeOthers, closeView, type TagView } from '../stores/tags-logic';

interface MenuState {
  x: number;
  y: number;
  view: TagView;
}

/** Visited-page tabs with the right-click menu 刷新 / 关闭 / 关闭其他 / 关闭所有 (spec §2, §9). */
export function TagsView() {
  const views = useTags((s) => s.views);
  const location = useLocation();
  const navigate = useNavigate();
  const active = location.pathname + location.search;
  const [menu, setMenu] = useState<MenuState | null>(null);
  const scroller = useRef<HTMLDivElement>(null);

  // Keep the active tab in view, with the spec's 4 px padding.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the active tab or the list changes.
  useEffect(() => {
    const box = scroller.current;
    const tag = box?.querySelector<HTMLElement>('[data-active="true"]');
    if (!box || !tag) return;
    const left = tag.offsetLeft - TAGS_SCROLL_PADDING_PX;
    const right = tag.offsetLeft + tag.offsetWidth + TAGS_SCROLL_PADDING_PX;
    if (left < box.scrollLeft) box.scrollLeft = left;
    else if (right > box.scrollLeft + box.clientWidth) box.scrollLeft = right - box.clientWidth;
  }, [active, views.length]);

  useEffect(() => {
    if (!menu) return;
    const close = () => setMenu(null);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    // Only a scroll that moves the tabs (the page, or a box holding the tags bar) leaves the menu
    // beside nothing; a table or list of the page scrolling as its data arrives does not close it
    // under the pointer.
    const onScroll = (e: Event) => {
      const bar = scroller.current;
      if (e.target === document || !bar || (e.target instanceof Node && e.target.contains(bar))) close();
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('click', close);
    window.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', close);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('click', close);
      window.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', close);
    };
  }, [menu]);

  const apply = ({ views: next, navigateTo }: CloseResult) => {
    useTags.getState().setViews(next);
    if (navigateTo) navigate(navigateTo);
  };

  const openMenu = (event: MouseEvent, view: TagView) => {
    event.preventDefault();
    const maxX = window.innerWidth - TAGS_CONTEXT_MENU_WIDTH_PX - 8;
    setMenu({ x: Math.min(event.clientX, maxX), y: event.clientY, view });
  };

  // Through /redirect/<path> (spec §2): the page mounts afresh and loads its data again. Refreshing
  // the page on screen replaces its history entry, so Back does not show it twice.
  const refresh = (view: TagView) => {
    navigate(refreshPath(view.path), { replace: view.path === active });
  };

  return (
    <nav className="tags-view" aria-label="已打开的页面">
      <div className="tags-scroll" ref={scroller}>
        {views.map((view) => {
          const isActive = view.path === active;
          return (
            <Link
              key={view.path}
              to={view.path}
              className={`tag${isActive ? ' tag-active' : ''}${view.affix ? ' tag-affix' : ''}`}
              data-active={isActive}
              data-path={view.path}
              onContextMenu={(e) => openMenu(e, view)}
            >
              {view.title}
              {view.affix ? null : (
                <button
                  type="button"
                  className="tag-close"
                  aria-label={`关闭 ${view.title}`}
                  onClick={(e) => {
                    e.preventDefault();
                    e.stopPropagation();
                    apply(closeView(views, view.path, active));
                  }}
                >
                  <CloseOutlined />
                </button>
              )}
            </Link>
          );
        })}
      </div>
      {menu ? (
        <div
          className="tags-contextmenu"
          role="menu"
          style={{ left: menu.x, top: menu.y, width: TAGS_CONTEXT_MENU_WIDTH_PX }}
        >
          <button type="button" role="menuitem" onClick={() => refresh(menu.view)}>
            刷新
          </button>
          {menu.view.affix ? null : (
            <button
              type="button"
              role="menuitem"
              onClick={() => apply(closeView(views, menu.view.path, active))}
            >
              关闭
            </button>
          )}
          <button
            type="button"
            role="menuitem"
            onClick={() => apply(closeOthers(views, menu.view.path, active))}
          >
            关闭其他
          </button>
          <button type="button" role="menuitem" onClick={() => apply(closeAll(views, active))}>
            关闭所有
          </button>
        </div>
      ) : null}
    </nav>
  );
}
