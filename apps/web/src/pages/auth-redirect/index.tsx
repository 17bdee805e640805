import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { safeRedirect } from '../../app/guard';

/**
 * Landing page for sign-ins completed in another window (spec §2 /auth-redirect). Opened as a popup,
 * it hands its query to the opener and closes; opened directly, it goes on to `redirect` (or home,
 * where the guard sends a visitor without a session to the login screen).
 */
export default function AuthRedirectPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();

  useEffect(() => {
    const opener = window.opener as Window | null;
    if (opener && opener !== window) {
      opener.postMessage({ type: 'wxc-auth-redirect', query: params.toString() }, location.origin);
      window.close();
      return;
    }
    navigate(safeRedirect(params.get('redirect')), { replace: true });
  }, [navigate, params]);

  return (
    <main className="status-page">
      <div className="status-card">
        <span className="boot-spinner" aria-hidden="true" />
        <h1>正在跳转…</h1>
        <p>如果页面没有自动跳转，请返回首页。</p>
        <div className="status-actions">
          <a className="btn" href="/">
            返回首页
          </a>
        </div>
      </div>
    </main>
  );
}
