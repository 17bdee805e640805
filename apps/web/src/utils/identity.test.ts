import type { UserInfo } from '@wxc/contract/domain';
import { describe, expect, it } from 'vitest';
import { avatarText, displayName, identityOf, initials, initialsAvatar, introduction } from './identity';

const company: UserInfo = {
  id: 'u1',
  companyName: '星河科技有限公司',
  companyAccount: '13912345678',
  // What registration stores: the phone number.
  userName: '13912345678',
  accountType: 1,
  realNameUser: 0,
  serverFlag: 'formal',
  roles: ['customer'],
};
const operator: UserInfo = {
  ...company,
  id: 'op',
  companyName: '运营中心',
  companyAccount: 'operator',
  userName: '王运营',
  roles: ['admin'],
};

describe('identity', () => {
  it('names a new company by its company name, never its phone number', () => {
    expect(displayName(company)).toBe('星河科技有限公司');
    expect(avatarText(company)).toBe('星');
    expect(identityOf(company).name).not.toContain('139');
  });

  it('uses a user name the customer chose', () => {
    expect(displayName({ ...company, userName: '李经理' })).toBe('李经理');
    // The avatar still shows the company.
    expect(avatarText({ ...company, userName: '李经理' })).toBe('星');
  });

  it("shows the operator's own name", () => {
    expect(displayName(operator)).toBe('王运营');
    expect(avatarText(operator)).toBe('王');
    expect(displayName({ ...operator, userName: '' })).toBe('operator');
  });

  it('takes the first Chinese character or Latin initials', () => {
    expect(initials('星河科技')).toBe('星');
    expect(initials('Acme Tech Ltd')).toBe('AT');
    expect(initials('acme')).toBe('Ac');
    expect(initials('  ')).toBe('?');
    expect(initials('123 公司')).toBe('1');
  });

  it('introduces customers by company and access mode, operators by role', () => {
    expect(introduction(company)).toBe('星河科技有限公司 · 接入方式 SaaS');
    expect(introduction({ ...company, accountType: 3 })).toBe('星河科技有限公司 · 接入方式 托管');
    expect(introduction(operator)).toBe('运营管理员');
  });

  it('generates a self-contained initials avatar, stable per user', () => {
    const url = initialsAvatar('星', 'u1');
    expect(url.startsWith('data:image/svg+xml')).toBe(true);
    expect(decodeURIComponent(url)).toContain('>星</text>');
    expect(url).not.toMatch(/https?%3A%2F%2F(?!www\.w3\.org)/);
    expect(initialsAvatar('星', 'u1')).toBe(url);
    expect(decodeURIComponent(initialsAvatar('<&>', 'x'))).not.toContain('<&>');
  });
});
