import { DEFAULT_THEME_COLOR } from '@wxc/contract/constants';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** Settings (spec §3), kept in localStorage so they survive reloads (the template lost them). */
export interface Settings {
  theme: string;
  showSettings: boolean;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  theme: DEFAULT_THEME_COLOR,
  showSettings: true,
  tagsView: true,
  fixedHeader: false,
  sidebarLogo: true,
};

export const SETTINGS_STORAGE_KEY = 'wxc-settings';

interface SettingsStore extends Settings {
  change<K extends keyof Settings>(key: K, value: Settings[K]): void;
  resetSettings(): void;
}

export const useSettings = create<SettingsStore>()(
  persist(
    (set) => ({
      ...DEFAULT_SETTINGS,
      change: (key, value) => set({ [key]: value } as Partial<Settings>),
      resetSettings: () => set({ ...DEFAULT_SETTINGS }),
    }),
    {
      name: SETTINGS_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ theme, showSettings, tagsView, fixedHeader, sidebarLogo }) => ({
        theme,
        showSettings,
        tagsView,
        fixedHeader,
        sidebarLogo,
      }),
    },
  ),
);
