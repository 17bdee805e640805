import { useEffect, useSyncExternalStore } from 'react';
import { useSite } from '../stores/site';

/**
 * The template showcase's route table (app/showcase-routes.ts) is a chunk of its own, loaded only
 * while the SHOWCASE switch is on: with the switch off the console carries none of it, and with it
 * on the product's pages do not wait for it (the menu's showcase group comes when it arrives).
 * The router patches the showcase's routes in before it opens a path it does not know
 * (app/router.tsx), so a showcase page, the guard, breadcrumbs and cached views on it always have
 * the table; elsewhere they treat a missing table as "not a showcase path".
 */
export type ShowcaseTable = typeof import('./showcase-routes');

/** The showcase's menu group (and its breadcrumb). */
export const SHOWCASE_GROUP_TITLE = '模板示例';

/** The showcase's external menu entry (a new tab), not a route. */
export function isExternal(path: string): boolean {
  return /^https?:\/\//i.test(path);
}

let table: ShowcaseTable | undefined;
let request: Promise<ShowcaseTable> | undefined;
const listeners = new Set<() => void>();

export function loadShowcaseTable(): Promise<ShowcaseTable> {
  request ??= import('./showcase-routes').then(
    (m) => {
      table = m;
      for (const listener of listeners) listener();
      return m;
    },
    (error: unknown) => {
      // A failed chunk load (a deploy in between, the network) may be retried by the next caller.
      request = undefined;
      throw error;
    },
  );
  return request;
}

/** The table if it has loaded, else undefined. */
export function showcaseTable(): ShowcaseTable | undefined {
  return table;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The table while the switch is on, loading it on first use; undefined until it has come. */
export function useShowcaseTable(): ShowcaseTable | undefined {
  const on = useSite((s) => s.showcase);
  const loaded = useSyncExternalStore(subscribe, showcaseTable);
  useEffect(() => {
    // Without it the menu simply has no showcase group; a page of it reports its own failure.
    if (on) loadShowcaseTable().catch(() => undefined);
  }, [on]);
  return on ? loaded : undefined;
}
