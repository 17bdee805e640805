import { PRODUCT_TITLE_DEFAULT } from '@wxc/contract/constants';
import { create } from 'zustand';

/** Public site facts from /api/normal/siteInfo: product title, version flag, support contact. */
export interface SiteInfo {
  productTitle: string;
  serverFlag: string;
  supportQrUrl: string | null;
  supportText: string;
}

export const useSite = create<SiteInfo & { loaded: boolean }>(() => ({
  productTitle: PRODUCT_TITLE_DEFAULT,
  serverFlag: '',
  supportQrUrl: null,
  supportText: '',
  loaded: false,
}));
