import { PRODUCT_TITLE_DEFAULT } from '@wxc/contract/constants';
import { create } from 'zustand';

/** Public site facts from /api/normal/siteInfo: product title, version flag, support contact. */
export interface SiteInfo {
  productTitle: string;
  serverFlag: string;
  supportQrUrl: string | null;
  supportText: string;
  /** Callback URLs may point at loopback or private addresses (on-premise setups). */
  callbackPrivateAllowed: boolean;
  /** The template showcase is on (SHOWCASE): its routes join the menu. */
  showcase: boolean;
  /** The messaging network is the built-in simulator: the QR dialog offers its phone page. */
  simulatedNetwork: boolean;
}

export const useSite = create<SiteInfo & { loaded: boolean; year: number }>(() => ({
  productTitle: PRODUCT_TITLE_DEFAULT,
  serverFlag: '',
  supportQrUrl: null,
  supportText: '',
  callbackPrivateAllowed: false,
  showcase: false,
  simulatedNetwork: true,
  loaded: false,
  // The year in page footers: the server's, where a page carries it (the prerendered sign-in page).
  year: new Date().getFullYear(),
}));
