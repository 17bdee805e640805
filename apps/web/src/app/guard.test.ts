import { describe, expect, it } from 'vitest';
import { canSee, filterMenu } from './access';
import { decide, loginRedirect, safeRedirect } from './guard';
import { shellGroups } from './routes';

describe('guard decisions', () => {
  const customer = ['customer'] as const;
  const admin = ['admin'] as const;

  it('without a token, opens only the white list', () => {
    for (const pathname of ['/login', '/register', '/auth-redirect', '/agreement']) {
      expect(decide({ pathname, search: '', hasToken: false, roles: null })).toEqual({ kind: 'allow' });
    }
  });

  it('without a token, sends everything else to /login with the full path as redirect', () => {
    expect(decide({ pathname: '/myAPI/index', search: '?a=1', hasToken: false, roles: null })).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2FmyAPI%2Findex%3Fa%3D1',
    });
    expect(decide({ pathname: '/404', search: '', hasToken: false, roles: null })).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2F404',
    });
    expect(decide({ pathname: '/', search: '', hasToken: false, roles: null })).toEqual({
      kind: 'redirect',
      to: '/login',
    });
  });

  it('opens the sign-in hand-off page whatever the session, without loading the user first', () => {
    for (const hasToken of [true, false]) {
      expect(decide({ pathname: '/auth-redirect', search: '?redirect=%2F', hasToken, roles: null })).toEqual({
        kind: 'allow',
      });
    }
  });

  it('with a token, sends /login and /register home', () => {
    expect(decide({ pathname: '/login', search: '', hasToken: true, roles: customer })).toEqual({
      kind: 'redirect',
      to: '/',
    });
    expect(decide({ pathname: '/register', search: '', hasToken: true, roles: null })).toEqual({
      kind: 'redirect',
      to: '/',
    });
  });

  it('with a token but no roles yet, loads the user first', () => {
    expect(decide({ pathname: '/dashboard', search: '', hasToken: true, roles: null })).toEqual({
      kind: 'load-user',
    });
    expect(decide({ pathname: '/dashboard', search: '', hasToken: true, roles: [] })).toEqual({
      kind: 'load-user',
    });
  });

  it('shows /401 for a route the roles do not allow, the page otherwise', () => {
    expect(decide({ pathname: '/operator/index', search: '', hasToken: true, roles: customer })).toEqual({
      kind: 'redirect',
      to: '/401',
    });
    expect(decide({ pathname: '/operator/index', search: '', hasToken: true, roles: admin })).toEqual({
      kind: 'allow',
    });
    expect(decide({ pathname: '/myAPI/index', search: '', hasToken: true, roles: customer })).toEqual({
      kind: 'allow',
    });
    // Unknown paths are allowed here; the router sends them to /404.
    expect(decide({ pathname: '/nope', search: '', hasToken: true, roles: customer })).toEqual({
      kind: 'allow',
    });
  });
});

describe('access', () => {
  it('sends an operator landing on / or /dashboard to the operator area, unless a company is chosen', () => {
    const admin = ['admin'] as const;
    const customer = ['customer'] as const;
    for (const pathname of ['/', '/dashboard', '/Dashboard/']) {
      expect(decide({ pathname, search: '', hasToken: true, roles: admin })).toEqual({
        kind: 'redirect',
        to: '/operator/index',
      });
      expect(decide({ pathname, search: '', hasToken: true, roles: admin, supportView: true })).toEqual({
        kind: 'allow',
      });
      expect(decide({ pathname, search: '', hasToken: true, roles: customer })).toEqual({ kind: 'allow' });
    }
    // Other customer pages stay open to operators: they show a company chooser (AppMain).
    expect(decide({ pathname: '/wechatList/index', search: '', hasToken: true, roles: admin })).toEqual({
      kind: 'allow',
    });
    expect(decide({ pathname: '/operator/index', search: '', hasToken: true, roles: admin })).toEqual({
      kind: 'allow',
    });
  });

  it('admin sees all; others need one matching role; no roles means everyone', () => {
    expect(canSee(undefined, ['customer'])).toBe(true);
    expect(canSee([], ['customer'])).toBe(true);
    expect(canSee(['admin'], ['customer'])).toBe(false);
    expect(canSee(['admin'], ['admin'])).toBe(true);
    expect(canSee(['customer'], ['admin'])).toBe(true);
    expect(canSee(['customer'], ['customer'])).toBe(true);
  });

  it('filters the menu: no hidden pages, no forbidden groups', () => {
    const customerMenu = filterMenu(shellGroups, ['customer']);
    const titles = customerMenu.map((g) => g.title);
    expect(titles).toEqual(['', '套餐 & 服务', '管理 & 账号', '测试 & 模拟']);
    const paths = customerMenu.flatMap((g) => g.routes.map((r) => r.path));
    expect(paths).not.toContain('/userInfo/index');
    expect(paths).not.toContain('/operator/index');
    expect(filterMenu(shellGroups, ['admin']).map((g) => g.title)).toContain('运营');
  });
});

describe('redirect targets', () => {
  it('keeps same-site paths and refuses other origins and the login screen', () => {
    expect(safeRedirect('/myAPI/index?x=1')).toBe('/myAPI/index?x=1');
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect('//evil.example')).toBe('/');
    expect(safeRedirect('/\\evil.example')).toBe('/');
    expect(safeRedirect('/login?redirect=/x')).toBe('/');
    expect(loginRedirect('/')).toBe('/login');
  });
});
