import { describe, expect, it } from 'vitest';
import { isRedirectPath, redirectTarget, refreshPath } from './redirect-route';

describe('/redirect/{path*}', () => {
  it('wraps a full path (query kept) in the helper route', () => {
    expect(refreshPath('/wechatList/index')).toBe('/redirect/wechatList/index');
    expect(refreshPath('/operator/index?tab=panel')).toBe('/redirect/operator/index?tab=panel');
  });

  it('unwraps the splat and keeps the query', () => {
    expect(redirectTarget('wechatList/index', '')).toBe('/wechatList/index');
    expect(redirectTarget('operator/index', '?tab=panel&x=1')).toBe('/operator/index?tab=panel&x=1');
    expect(redirectTarget('dashboard', '?')).toBe('/dashboard');
    expect(redirectTarget(undefined)).toBe('/');
  });

  it('never leaves the site', () => {
    expect(redirectTarget('/evil.example/x')).toBe('/evil.example/x');
    expect(redirectTarget('//evil.example')).toBe('/evil.example');
    expect(redirectTarget('\\\\evil.example')).toBe('/evil.example');
    expect(redirectTarget(refreshPath('//evil.example').slice('/redirect/'.length))).toBe('/evil.example');
  });

  it('recognises the helper route', () => {
    expect(isRedirectPath('/redirect/dashboard')).toBe(true);
    expect(isRedirectPath('/redirect')).toBe(true);
    expect(isRedirectPath('/redirects')).toBe(false);
    expect(isRedirectPath('/dashboard')).toBe(false);
  });
});
