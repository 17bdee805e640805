import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { commerceKeys } from '../commerce/keys';
import { onboardingKeys } from '../onboarding/keys';
import type { LiveEvent } from './sse';

/**
 * Query keys of the messaging screens (用户中心, 微信管理, 在线测试, 模拟演示) and the one place that
 * decides what a live event makes stale.
 */
export const messagingKeys = {
  all: ['messaging'] as const,
  stats: () => [...messagingKeys.all, 'stats'] as const,
  figure: (id: string) => [...messagingKeys.stats(), 'figure', id] as const,
  month: (month: string) => [...messagingKeys.stats(), 'month', month] as const,
  details: (filter: object) => [...messagingKeys.stats(), 'details', filter] as const,
  accounts: () => [...messagingKeys.all, 'accounts'] as const,
  accountList: (filter: object) => [...messagingKeys.accounts(), 'list', filter] as const,
  online: () => [...messagingKeys.accounts(), 'online'] as const,
  records: () => [...messagingKeys.all, 'records'] as const,
  loginRecords: (filter: object) => [...messagingKeys.records(), 'logins', filter] as const,
  devices: (filter: object) => [...messagingKeys.records(), 'devices', filter] as const,
  messages: (wxid: string) => [...messagingKeys.all, 'messages', wxid] as const,
  conversation: (wxid: string, peer: string | undefined) =>
    [...messagingKeys.messages(wxid), peer ?? '*'] as const,
  contacts: (wxid: string) => [...messagingKeys.all, 'contacts', wxid] as const,
  members: (wxid: string, roomId: string) => [...messagingKeys.contacts(wxid), 'members', roomId] as const,
  deliveries: () => [...messagingKeys.all, 'deliveries'] as const,
  deliveryList: (filter: object) => [...messagingKeys.deliveries(), 'list', filter] as const,
  attempts: (eventId: string) => [...messagingKeys.deliveries(), 'attempts', eventId] as const,
  proxies: () => [...messagingKeys.all, 'proxies'] as const,
  catalogue: () => [...messagingKeys.all, 'catalogue'] as const,
  params: (path: string) => [...messagingKeys.all, 'params', path] as const,
};

/** What a live event makes stale (prefixes: everything under them is refetched if shown). */
export function keysForEvent(event: LiveEvent): QueryKey[] {
  switch (event.kind) {
    case 'account':
      // Figures, lists and records change; sub-accounts show how many of their slots are in use.
      return [
        messagingKeys.stats(),
        messagingKeys.accounts(),
        messagingKeys.records(),
        [...commerceKeys.all, 'apiAccounts'],
        onboardingKeys.all,
      ];
    case 'message':
      return [messagingKeys.messages(event.wxid), [...messagingKeys.stats(), 'details'], onboardingKeys.all];
    case 'callback':
      return [messagingKeys.deliveries(), onboardingKeys.all];
    case 'qr':
      return [messagingKeys.records()];
    case 'realname':
      // The 开始使用 checklist's last step.
      return [onboardingKeys.all];
  }
}

/**
 * Invalidates what events make stale, batched: a burst of messages (a chatty group) refetches once
 * per `delayMs`, not once per message.
 */
export function createInvalidator(client: QueryClient, delayMs = 250) {
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  return (event: LiveEvent) => {
    for (const key of keysForEvent(event)) pending.set(JSON.stringify(key), key);
    if (timer || pending.size === 0) return;
    timer = setTimeout(() => {
      timer = null;
      const keys = [...pending.values()];
      pending.clear();
      for (const queryKey of keys) void client.invalidateQueries({ queryKey });
    }, delayMs);
  };
}
