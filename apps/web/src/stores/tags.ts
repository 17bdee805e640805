import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { type TagView, withAffix } from './tags-logic';

/**
 * Visited tabs, kept in sessionStorage (a reload keeps them; logout and a new browser session
 * don't). A tab's 刷新 goes through the /redirect/<path> route (app/redirect.ts).
 */
interface TagsState {
  views: TagView[];
  setViews(views: TagView[]): void;
  reset(): void;
}

export const useTags = create<TagsState>()(
  persist(
    (set) => ({
      views: [],
      setViews: (views) => set({ views }),
      reset: () => set({ views: [] }),
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
