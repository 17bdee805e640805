import { useEffect } from 'react';
import { useRouteMeta } from '../app/RootLayout';
import { useSession } from '../stores/session';
import { setShowcaseAvatar, useShowcase } from '../stores/showcase';

/**
 * The showcase avatar (set on /components/avatar-upload) while a showcase page is open, else null:
 * the navbar shows it instead of the account's picture there. Read once per signed-in user; the
 * showcase's client and contract load only then, so product pages carry none of it.
 */
export function useShowcaseAvatar(): string | null {
  const onShowcasePage = Boolean(useRouteMeta()?.meta.showcase);
  const userId = useSession((s) => s.user?.id);
  const saved = useShowcase((s) => s.avatar);
  const known = saved !== null && saved.userId === userId;
  useEffect(() => {
    if (!onShowcasePage || !userId || known) return;
    let live = true;
    void Promise.all([import('../api/showcase'), import('@wxc/contract/calls/showcase')])
      .then(([{ showcaseCall }, { avatar }]) => showcaseCall(avatar, {}, { quiet: true }))
      .then((answer) => live && setShowcaseAvatar(userId, answer.url))
      // No avatar shown is the right fallback: the account's own picture stays.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [onShowcasePage, userId, known]);
  return onShowcasePage && known ? saved.url : null;
}
