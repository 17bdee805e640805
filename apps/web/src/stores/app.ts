import { MOBILE_BREAKPOINT_PX, SIDEBAR_STATUS_COOKIE, SIZE_COOKIE } from '@wxc/contract/constants';
import { create } from 'zustand';
import { getCookie, setCookie } from '../utils/cookies';

/** UI state saved per spec §3: the sidebar flag (cookie, 1/0), device, size (cookie). */
export type Device = 'desktop' | 'mobile';
export type Size = 'small' | 'medium' | 'large';
const SIZES: readonly Size[] = ['small', 'medium', 'large'];

export interface AppState {
  sidebarOpened: boolean;
  withoutAnimation: boolean;
  device: Device;
  size: Size;
}

function initialSize(): Size {
  const saved = getCookie(SIZE_COOKIE);
  return SIZES.includes(saved as Size) ? (saved as Size) : 'medium';
}

export function isMobileWidth(width: number): boolean {
  return width < MOBILE_BREAKPOINT_PX;
}

export const useApp = create<AppState>(() => {
  const saved = getCookie(SIDEBAR_STATUS_COOKIE);
  const mobile = typeof window !== 'undefined' && isMobileWidth(window.innerWidth);
  return {
    // Mobile starts with the sidebar closed whatever the cookie says.
    sidebarOpened: mobile ? false : saved === undefined ? true : saved === '1',
    withoutAnimation: false,
    device: mobile ? 'mobile' : 'desktop',
    size: initialSize(),
  };
});

export function toggleSidebar(): void {
  const opened = !useApp.getState().sidebarOpened;
  if (useApp.getState().device === 'desktop') setCookie(SIDEBAR_STATUS_COOKIE, opened ? '1' : '0');
  useApp.setState({ sidebarOpened: opened, withoutAnimation: false });
}

export function closeSidebar(withoutAnimation = false): void {
  if (useApp.getState().device === 'desktop') setCookie(SIDEBAR_STATUS_COOKIE, '0');
  useApp.setState({ sidebarOpened: false, withoutAnimation });
}

export function setDevice(device: Device): void {
  if (useApp.getState().device === device) return;
  if (device === 'mobile') {
    // Spec §2: below 992 px the sidebar is closed; the desktop cookie keeps its own value.
    useApp.setState({ device, sidebarOpened: false, withoutAnimation: true });
  } else {
    useApp.setState({
      device,
      sidebarOpened: getCookie(SIDEBAR_STATUS_COOKIE) !== '0',
      withoutAnimation: true,
    });
  }
}

export function setSize(size: Size): void {
  setCookie(SIZE_COOKIE, size);
  useApp.setState({ size });
}
