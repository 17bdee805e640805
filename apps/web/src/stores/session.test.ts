// @vitest-environment happy-dom
import { TOKEN_COOKIE } from '@wxc/contract/constants';
import type { UserInfo } from '@wxc/contract/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { logoutLocal, resetToken, setUser, setWxCount, signIn, useSession } from './session';

const company: UserInfo = {
  id: 'u1',
  companyName: '星河科技有限公司',
  companyAccount: '13912345678',
  userName: '13912345678',
  accountType: 1,
  realNameUser: 0,
  serverFlag: 'formal',
  roles: ['customer'],
};

afterEach(() => resetToken());

describe('session store (spec §3: token, name, avatar, introduction, roles, wxCount)', () => {
  it('fills name, avatar and introduction from the user info at sign-in', () => {
    signIn('tok-1', company);
    const s = useSession.getState();
    expect(s.token).toBe('tok-1');
    expect(document.cookie).toContain(`${TOKEN_COOKIE}=tok-1`);
    expect(s.roles).toEqual(['customer']);
    expect(s.name).toBe('星河科技有限公司');
    expect(s.avatarText).toBe('星');
    expect(s.avatar).toMatch(/^data:image\/svg\+xml/);
    expect(s.introduction).toBe('星河科技有限公司 · 接入方式 SaaS');
    expect(s.wxCount).toBeNull();
  });

  it('follows user info changes (a new user name, an operator)', () => {
    signIn('tok-1', company);
    setUser({ ...company, userName: '李经理' });
    expect(useSession.getState().name).toBe('李经理');
    setUser({ ...company, companyAccount: 'operator', userName: '王运营', roles: ['admin'] });
    expect(useSession.getState()).toMatchObject({
      name: '王运营',
      avatarText: '王',
      introduction: '运营管理员',
    });
  });

  it('keeps the online count and forgets everything at logout', () => {
    signIn('tok-1', company);
    setWxCount(3);
    expect(useSession.getState().wxCount).toBe(3);
    logoutLocal();
    expect(useSession.getState()).toMatchObject({
      token: undefined,
      user: null,
      roles: null,
      name: '',
      avatar: '',
      introduction: '',
      wxCount: null,
    });
    expect(document.cookie).not.toContain('tok-1');
  });
});
