import { describe, expect, it } from 'vitest';
import { accountTypeLabel, realNameStatus } from './labels';

describe('labels', () => {
  it('maps realNameUser to a status, anything unknown being unverified', () => {
    expect([0, 1, 2, 3, 4, -1, null, undefined].map(realNameStatus)).toEqual([0, 1, 2, 3, 0, 0, 0, 0]);
  });

  it('names the access modes', () => {
    expect([1, 2, 3, 4, 9, undefined].map(accountTypeLabel)).toEqual([
      'SaaS',
      '本地部署',
      '托管',
      '私有化',
      '未设置',
      '未设置',
    ]);
  });
});
