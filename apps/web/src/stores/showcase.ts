import { create } from 'zustand';

/**
 * The template showcase's role (spec §6 mock roles: admin sees all, editor all but admin-only
 * routes, visitor only unrestricted ones). It decides the showcase menu and which showcase URLs
 * open; it grants nothing outside the showcase. Until the permission page switches it, it follows
 * the product role: operators are `admin`, customers `editor`.
 */
export type ShowcaseRole = 'admin' | 'editor' | 'visitor';
export const SHOWCASE_ROLES: readonly ShowcaseRole[] = ['admin', 'editor', 'visitor'];

interface ShowcaseState {
  /** Chosen on the permission page; null follows the product role. */
  override: ShowcaseRole | null;
  /**
   * The showcase avatar (components/avatar-upload) of the signed-in user, once read: the navbar
   * shows it on the showcase's pages. Kept with the user it belongs to, so another sign-in in the
   * same tab reads its own.
   */
  avatar: { userId: string; url: string | null } | null;
}

export const useShowcase = create<ShowcaseState>(() => ({ override: null, avatar: null }));

export function setShowcaseAvatar(userId: string, url: string | null): void {
  useShowcase.setState({ avatar: { userId, url } });
}

export function showcaseRoleFor(
  productRoles: readonly string[] | null | undefined,
  override: ShowcaseRole | null,
): ShowcaseRole {
  if (override) return override;
  return productRoles?.includes('admin') ? 'admin' : 'editor';
}

/** Switches the showcase role (null: back to the one derived from the product role). */
export function setShowcaseRole(role: ShowcaseRole | null): void {
  useShowcase.setState({ override: role });
}
