import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createInvalidator, keysForEvent, messagingKeys } from './queries';

describe('keysForEvent', () => {
  it('an account going on/offline refreshes figures, lists, records, sub-account slots and the checklist', () => {
    expect(keysForEvent({ kind: 'account', wxid: 'w', status: 'online' })).toEqual([
      ['messaging', 'stats'],
      ['messaging', 'accounts'],
      ['messaging', 'records'],
      ['commerce', 'apiAccounts'],
      ['onboarding'],
    ]);
  });
  it('a message refreshes that account’s conversations and the day counts; a callback the log; each the checklist', () => {
    expect(keysForEvent({ kind: 'message', wxid: 'w', msgId: 'm', direction: 'in', status: 'sent' })).toEqual(
      [['messaging', 'messages', 'w'], ['messaging', 'stats', 'details'], ['onboarding']],
    );
    expect(keysForEvent({ kind: 'callback', eventId: 'e', status: 'delivered' })).toEqual([
      messagingKeys.deliveries(),
      ['onboarding'],
    ]);
    expect(keysForEvent({ kind: 'realname', status: 1 })).toEqual([['onboarding']]);
  });
  it('conversation keys sit under the account’s messages key', () => {
    expect(messagingKeys.conversation('w', 'p').slice(0, 3)).toEqual([...messagingKeys.messages('w')]);
  });
});

describe('createInvalidator', () => {
  it('batches a burst of events into one invalidation per key', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const spy = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    const invalidate = createInvalidator(client, 100);
    for (let i = 0; i < 5; i++)
      invalidate({ kind: 'message', wxid: 'w', msgId: `m${i}`, direction: 'in', status: 'sent' });
    expect(spy).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(spy).toHaveBeenCalledTimes(3);
    vi.useRealTimers();
  });
});
