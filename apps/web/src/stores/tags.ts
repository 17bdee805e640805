import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { type TagView, withAffix } from './tags-logic';

/**
 * Visited tabs, kept in sessionStorage (a reload keeps them; logout and a new browser session
 * don't). `refreshKeys` re-mounts a page for the 刷新 action.
 */
interface TagsState {
  views: TagView[];
  refreshKeys: Record<string, number>;
  setViews(views: TagView[]): void;
  refresh(path: string): void;
  reset(): void;
}

export const useTags = create<TagsState>()(
  persist(
    (set) => ({
      views: [],
      refreshKeys: {},
      setViews: (views) => set({ views }),
      refresh: (path) =>
        set((s) => ({ refreshKeys: { ...s.refreshKeys, [path]: (s.refreshKeys[path] ?? 0) + 1 } })),
      reset: () => set({ views: [], refreshKeys: {} }),
    }),
    {
      name: 'wxc-tags',
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ views }) => ({ views }),
    },
  ),
);

export function ensureAffix(affix: TagView[]): void {
  const { views, setViews } = useTags.getState();
  setViews(withAffix(views, affix));
}
