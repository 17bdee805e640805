import type { MessageArgsProps, ModalFuncProps } from 'antd';
import type { ReactNode } from 'react';

/**
 * Toasts and confirmations for the pages, what antd's `App.useApp()` gave them, without antd's App
 * (its message, notification and modal holders, ≈17 KB gzip) on the first load: antd's static
 * methods, loaded with the first toast or dialog and themed like the page (api/ui-antd.tsx gives
 * them the theme colour, locale and component size).
 */
const load = () => import('../api/ui-antd');

type Notice = (content: ReactNode | MessageArgsProps, duration?: number) => Promise<void>;
type Dialog = (props: ModalFuncProps) => void;

const notice =
  (kind: 'success' | 'error' | 'info' | 'warning' | 'loading'): Notice =>
  (content, duration) =>
    load().then((m) => {
      void m.message[kind](content, duration);
    });

const dialog =
  (kind: 'confirm' | 'info' | 'success' | 'error' | 'warning'): Dialog =>
  (props) => {
    void load().then((m) => m.Modal[kind](props));
  };

export interface Feedback {
  message: { success: Notice; error: Notice; info: Notice; warning: Notice; loading: Notice };
  modal: { confirm: Dialog; info: Dialog; success: Dialog; error: Dialog; warning: Dialog };
}

const feedback: Feedback = {
  message: {
    success: notice('success'),
    error: notice('error'),
    info: notice('info'),
    warning: notice('warning'),
    loading: notice('loading'),
  },
  modal: {
    confirm: dialog('confirm'),
    info: dialog('info'),
    success: dialog('success'),
    error: dialog('error'),
    warning: dialog('warning'),
  },
};

/** `const { message, modal } = useFeedback();` as with antd's `App.useApp()`. */
export function useFeedback(): Feedback {
  return feedback;
}

/** Starts loading antd's toasts and dialogs ahead of a likely first use (e.g. a dialog opening). */
export function preloadFeedback(): void {
  void load();
}
