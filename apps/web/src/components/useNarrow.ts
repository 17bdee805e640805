import { useSyncExternalStore } from 'react';

/** Phones (below antd's `sm`, 576 px): lists collapse from tables to cards. */
export const NARROW_QUERY = '(max-width: 575.98px)';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

export const useNarrow = () => useMediaQuery(NARROW_QUERY);
