import { ONBOARDING_STEPS } from '@wxc/contract/calls/onboarding';
import { describe, expect, it } from 'vitest';
import { checklist, STEP_INFO } from './steps';

describe('开始使用 checklist', () => {
  it('has a title, text and link for every step of the service, in its order', () => {
    expect(Object.keys(STEP_INFO).sort()).toEqual([...ONBOARDING_STEPS].sort());
    const c = checklist(ONBOARDING_STEPS.map((key) => ({ key, done: false })));
    expect(c.rows.map((r) => r.title)).toEqual([
      '购买套餐',
      '新建子账号',
      '登录微信账号',
      '发送一条消息',
      '设置回调地址',
      '实名认证',
    ]);
    expect(c.rows.map((r) => r.to)).toEqual([
      '/purchaseRecords/index',
      '/accountList/index?open=1',
      '/wechatList/index?add=1',
      '/moniyanshi/index',
      '/onlineTest/index#callbacks',
      'realname',
    ]);
  });

  it('marks the first step not done as next, counts the done ones', () => {
    const c = checklist(ONBOARDING_STEPS.map((key, i) => ({ key, done: i < 2 || key === 'realName' })));
    expect(c.rows.filter((r) => r.next).map((r) => r.key)).toEqual(['login']);
    expect([c.done, c.total, c.allDone]).toEqual([3, 6, false]);
  });

  it('is all done with every step ticked, and then nothing is next', () => {
    const c = checklist(ONBOARDING_STEPS.map((key) => ({ key, done: true })));
    expect(c.allDone).toBe(true);
    expect(c.rows.some((r) => r.next)).toBe(false);
    expect(checklist([]).allDone).toBe(false);
  });
});
