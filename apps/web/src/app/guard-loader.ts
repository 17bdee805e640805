import * as authCalls from '@wxc/contract/calls/auth';
import * as systemCalls from '@wxc/contract/calls/system';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { call } from '../api/client';
import { showError } from '../api/ui';
import { resetToken, setUser, useSession } from '../stores/session';
import { showcaseRoleFor, useShowcase } from '../stores/showcase';
import { useSite } from '../stores/site';
import { supportViewCompany } from '../stores/support-view';
import { leaveSignInNotice } from '../utils/redirects';
import { decide, loginRedirect } from './guard';

let siteInfoRequest: Promise<void> | undefined;

/** Site facts (title, support contact) are loaded once, quietly: defaults stand in on failure. */
export function loadSiteInfo(): Promise<void> {
  siteInfoRequest ??= call(systemCalls.siteInfo, {}, { quiet: true })
    .then((info) => useSite.setState({ ...info, loaded: true }))
    .catch(() => useSite.setState({ loaded: true }));
  return siteInfoRequest;
}

/**
 * The root route's loader: runs before every navigation and carries out `decide` (spec §2).
 * On a failed user-info load: clear the token, show the error text (or 'Has Error'), go to login.
 */
export async function guardLoader({ request }: LoaderFunctionArgs): Promise<null> {
  const url = new URL(request.url);
  // The showcase switch comes with the site facts; a path the router did not know has waited for
  // them already (router.tsx, patchShowcaseRoutes), so a showcase page is decided with them.
  void loadSiteInfo();
  const input = () => {
    const { token, roles } = useSession.getState();
    return {
      pathname: url.pathname,
      search: url.search,
      hasToken: Boolean(token),
      roles,
      supportView: supportViewCompany() !== null,
      showcase: useSite.getState().showcase,
      showcaseRole: showcaseRoleFor(roles, useShowcase.getState().override),
    };
  };
  let decision = decide(input());
  if (decision.kind === 'load-user') {
    try {
      const user = await call(authCalls.refreshLoginInfo, {}, { quiet: true, signal: request.signal });
      // Spec §8 'getInfo: roles must be a non-null array!', said in Chinese.
      if (!Array.isArray(user.roles) || user.roles.length === 0) {
        throw new Error('账号角色信息缺失，请重新登录');
      }
      setUser(user);
    } catch (error) {
      if (request.signal.aborted) throw error;
      resetToken();
      const text =
        error instanceof Error && error.message ? error.message : '出错了（Has Error），请重新登录';
      showError(text);
      leaveSignInNotice(text);
      throw redirect(loginRedirect(url.pathname + url.search));
    }
    decision = decide(input());
  }
  if (decision.kind === 'redirect') throw redirect(decision.to);
  return null;
}
