import { useEffect, useState } from 'react';
import { type SiteInfo, useSite } from '../../stores/site';
import { safeRedirect, takeSignInNotice } from '../../utils/redirects';
import { ForgotForm } from './ForgotForm';
import { LoginForm } from './LoginForm';
import { RegisterForm } from './RegisterForm';
import './login.css';

type Mode = 'login' | 'register' | 'forgot';

/**
 * /login and /register: one screen with two tabs, plus the forgot-password panel (spec §2). It is a
 * page of its own (login.html, src/login/main.tsx), prerendered at build time so the form paints
 * from the HTML: `path` and `search` are the address it was opened at.
 */
export default function SignInPage({
  path,
  search,
  site: given,
}: {
  path: string;
  search: string;
  /** The build-time prerender passes the site facts (placeholders); the browser reads the store. */
  site?: Pick<SiteInfo, 'productTitle' | 'serverFlag'> & { year: number | string };
}) {
  const stored = useSite();
  const site = given ?? stored;
  const [routeMode, setRouteMode] = useState<Mode>(path === '/register' ? 'register' : 'login');
  const [forgot, setForgot] = useState<{ account: string } | null>(null);
  const [account, setAccount] = useState('');
  const [notice, setNotice] = useState('');
  // Why the console sent us here (an expired session): shown once, after hydration.
  const [alert, setAlert] = useState('');
  useEffect(() => setAlert(takeSignInNotice() ?? ''), []);
  const mode: Mode = routeMode === 'login' && forgot ? 'forgot' : routeMode;
  useEffect(() => {
    document.title = `${routeMode === 'register' ? '注册' : '登录'} - ${site.productTitle}`;
  }, [routeMode, site.productTitle]);

  const redirect = new URLSearchParams(search).get('redirect');
  // Into the console: a full page load of its own bundle.
  const goOn = () => location.replace(safeRedirect(redirect));
  const switchTo = (next: 'login' | 'register') => {
    setForgot(null);
    setNotice('');
    setRouteMode(next);
    history.replaceState(null, '', `/${next}${location.search}`);
  };

  return (
    <main className="auth">
      <section className="auth-brand" aria-hidden="true">
        <div className="auth-brand-inner">
          <div className="auth-logo">
            <img src="/favicon.svg" alt="" width={40} height={40} />
            <span>{site.productTitle}</span>
          </div>
          <h2>稳定、易接入的微信账号接口服务</h2>
          <ul>
            <li>消息收发、通讯录、群成员，一套接口全覆盖</li>
            <li>子账号与回调通知，轻松对接自有业务系统</li>
            <li>在线测试与模拟演示，接入前先体验</li>
          </ul>
        </div>
      </section>
      <section className="auth-panel">
        <div className="auth-card">
          <h1 className="auth-title">
            {site.productTitle}
            {site.serverFlag === 'formal' ? <span className="auth-flag">正式版</span> : null}
          </h1>
          {mode === 'forgot' ? (
            <>
              <div className="auth-subhead">
                <h2>找回密码</h2>
                <button type="button" className="link-button" onClick={() => setForgot(null)}>
                  返回登录
                </button>
              </div>
              <ForgotForm
                initialAccount={forgot?.account ?? ''}
                onDone={(acc) => {
                  setForgot(null);
                  setAccount(acc);
                  setNotice('密码已重置，请使用新密码登录。');
                }}
              />
            </>
          ) : (
            <>
              <div className="auth-tabs" role="tablist">
                {(['login', 'register'] as const).map((tab) => (
                  <button
                    key={tab}
                    type="button"
                    role="tab"
                    aria-selected={mode === tab}
                    className={`auth-tab${mode === tab ? ' auth-tab-active' : ''}`}
                    onClick={() => switchTo(tab)}
                  >
                    {tab === 'login' ? '账号登录' : '注册账号'}
                  </button>
                ))}
              </div>
              {mode === 'login' ? (
                <LoginForm
                  key={account}
                  initialAccount={account}
                  notice={notice}
                  alert={alert}
                  onSignedIn={goOn}
                  onForgot={(acc) => {
                    setNotice('');
                    setForgot({ account: acc });
                  }}
                />
              ) : (
                <RegisterForm onSignedIn={goOn} />
              )}
            </>
          )}
        </div>
        <p className="auth-footer">
          © {site.year} {site.productTitle}
        </p>
      </section>
    </main>
  );
}
