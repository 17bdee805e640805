import type { RequestUi } from './request';

/**
 * The request layer's toasts and dialogs are antd's, loaded on first use: the login page does not
 * ship antd until it has something to say.
 */
const load = () => import('./ui-antd');

export const lazyUi: RequestUi = {
  error(text, durationMs) {
    void load().then((m) => m.showError(text, durationMs));
  },
  confirm(options) {
    return load().then((m) => m.confirm(options));
  },
};

export function showSuccess(text: string): void {
  void load().then((m) => m.showSuccess(text));
}

export function showError(text: string, durationMs = 5000): void {
  lazyUi.error(text, durationMs);
}
