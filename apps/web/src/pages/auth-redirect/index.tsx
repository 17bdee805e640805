import * as authCalls from '@wxc/contract/calls/auth';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { ApiError } from '../../api/request';
import { safeRedirect } from '../../app/guard';
import {
  HANDOFF_DONE,
  HANDOFF_FAILED,
  HANDOFF_READY,
  tokenFromFragment,
  tokenFromMessage,
} from '../../features/auth-handoff';
import { signIn } from '../../stores/session';

/** How long a popup waits for its opener's token before explaining itself. */
const OPENER_WAIT_MS = 10_000;

type State =
  | { kind: 'start' }
  | { kind: 'waiting' }
  | { kind: 'checking' }
  | { kind: 'closing' }
  | { kind: 'idle' }
  | { kind: 'error'; message: string };

const INVALID_TOKEN = '登录凭证无效或已过期，请重新登录。';

function failureText(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'business') return INVALID_TOKEN;
  if (error instanceof ApiError && error.message) return `登录信息验证失败：${error.message}`;
  return INVALID_TOKEN;
}

function openerWindow(): Window | null {
  const opener = window.opener as Window | null;
  return opener && opener !== window ? opener : null;
}

/**
 * /auth-redirect (spec §2): finishes a sign-in handed over by another window or page — a token in
 * the URL fragment, or from the window that opened this one (features/auth-handoff.ts). The token
 * is checked with refreshLoginInfo, stored like a login, and then this page closes itself (popup) or
 * goes on to `redirect`. Opened without a hand-off, it says what it is for and links to the login.
 */
export default function AuthRedirectPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ kind: 'start' });
  const redirect = safeRedirect(params.get('redirect'));
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on arrival.
  useEffect(() => {
    let active = true;
    const opener = openerWindow();
    const tell = (type: string) => {
      try {
        opener?.postMessage({ type }, window.location.origin);
      } catch {
        // the opener went away or is another site: nothing to tell
      }
    };

    async function complete(token: string) {
      setState({ kind: 'checking' });
      try {
        const user = await call(authCalls.refreshLoginInfo, {}, { token, quiet: true });
        if (!active) return;
        if (!Array.isArray(user.roles) || user.roles.length === 0) throw new Error(INVALID_TOKEN);
        signIn(token, user);
      } catch (error) {
        if (!active) return;
        tell(HANDOFF_FAILED);
        setState({ kind: 'error', message: failureText(error) });
        return;
      }
      if (opener) {
        tell(HANDOFF_DONE);
        setState({ kind: 'closing' });
        window.close();
      } else {
        navigate(redirect, { replace: true });
      }
    }

    const fragment = tokenFromFragment(location.hash);
    if (location.hash) {
      // The token must not stay in the address bar or the history.
      navigate({ pathname: location.pathname, search: location.search }, { replace: true });
    }
    const cancel = () => {
      active = false;
    };
    if (fragment.kind === 'token') {
      void complete(fragment.token);
      return cancel;
    }
    if (fragment.kind === 'invalid') {
      setState({ kind: 'error', message: INVALID_TOKEN });
      return cancel;
    }
    if (!opener) {
      setState({ kind: 'idle' });
      return cancel;
    }

    setState({ kind: 'waiting' });
    const onMessage = (event: MessageEvent) => {
      const token = tokenFromMessage(event, { origin: window.location.origin, opener });
      if (!token) return;
      stop();
      void complete(token);
    };
    const timer = window.setTimeout(() => {
      stop();
      setState({ kind: 'idle' });
    }, OPENER_WAIT_MS);
    function stop() {
      window.removeEventListener('message', onMessage);
      window.clearTimeout(timer);
    }
    window.addEventListener('message', onMessage);
    tell(HANDOFF_READY);
    return () => {
      cancel();
      stop();
    };
  }, []);

  const loginLink = redirect !== '/' ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login';

  if (state.kind === 'idle' || state.kind === 'error') {
    const error = state.kind === 'error';
    return (
      <main className="status-page">
        <div className="status-card" data-testid="auth-redirect" data-state={state.kind}>
          <div className="status-code status-code-text">{error ? '未完成' : '登录交接'}</div>
          <h1>{error ? '登录未完成' : '这是登录交接页'}</h1>
          {error ? (
            <p role="alert">{state.message}</p>
          ) : (
            <>
              <p>
                在其他窗口或第三方页面完成登录后，登录信息会交到这个页面：验证通过后自动进入控制台，弹出的登录窗口会自行关闭。
              </p>
              <p>您是直接打开的此页面，没有等待完成的登录。</p>
            </>
          )}
          <div className="status-actions">
            {/* A full page load: the sign-in screen may be a page of its own. */}
            <a className="btn btn-primary" href={loginLink}>
              {error ? '重新登录' : '前往登录'}
            </a>
            <Link className="btn" to="/">
              返回首页
            </Link>
          </div>
        </div>
      </main>
    );
  }

  const text =
    state.kind === 'waiting'
      ? '正在等待登录信息…'
      : state.kind === 'closing'
        ? '登录成功，此窗口即将关闭'
        : '正在验证登录信息…';
  return (
    <main className="status-page">
      <div className="status-card" data-testid="auth-redirect" data-state={state.kind} aria-busy="true">
        <span className="boot-spinner" aria-hidden="true" />
        <h1>{text}</h1>
        {state.kind === 'closing' ? <p>如果窗口没有自动关闭，可以直接关闭它，回到原来的页面继续。</p> : null}
      </div>
    </main>
  );
}
