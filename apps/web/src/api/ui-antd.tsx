import { ConfigProvider, Modal, message } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { useApp } from '../stores/app';
import { useSettings } from '../stores/settings';
import { themeConfig } from '../utils/theme';
import type { ConfirmOptions } from './request';

export { Modal, message };

const SIZE_TO_ANTD = { small: 'small', medium: 'middle', large: 'large' } as const;

// Static toasts and dialogs render outside the React tree: give them the locale, theme and component
// size the shell gives the page (layout/Shell.tsx).
function Holder({ children }: { children: ReactNode }) {
  const theme = useSettings((s) => s.theme);
  const size = useApp((s) => s.size);
  return (
    <ConfigProvider locale={zhCN} theme={themeConfig(theme)} componentSize={SIZE_TO_ANTD[size]}>
      {children}
    </ConfigProvider>
  );
}
ConfigProvider.config({ holderRender: (children) => <Holder>{children}</Holder> });

/** Keyed by its text: the same message shown again replaces the one on screen instead of stacking. */
export function showError(text: string, durationMs: number): void {
  void message.error({ key: `error:${text}`, content: text, duration: durationMs / 1000 });
}

export function showSuccess(text: string): void {
  void message.success({ content: text, duration: 3 });
}

export function confirm(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    Modal.confirm({
      className: 'wxc-confirm',
      title: options.title,
      content: options.content,
      okText: options.okText,
      cancelText: options.cancelText,
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}
