import { z } from 'zod';
import { defineCall, emptyRequest } from '../call.js';

/** The first-day checklist, in the order a new customer goes through it. */
export const ONBOARDING_STEPS = [
  'package',
  'subAccount',
  'login',
  'message',
  'callback',
  'realName',
] as const;
export const onboardingStepSchema = z.enum(ONBOARDING_STEPS);
export type OnboardingStep = z.infer<typeof onboardingStepSchema>;

export const gettingStarted = defineCall({
  id: 'home.gettingStarted',
  method: 'POST',
  path: '/api/home/gettingStarted',
  audience: 'customer',
  supportRead: true,
  tag: '用户中心',
  summary: '开始使用：新客户的上手清单',
  description:
    '六个步骤（购买套餐 → 新建子账号 → 登录微信账号 → 发送消息 → 设置回调地址 → 实名认证）各自是否已完成，均由已有记录得出：做过即勾选。',
  request: emptyRequest,
  response: z.object({
    steps: z.array(z.object({ key: onboardingStepSchema, done: z.boolean() })),
    allDone: z.boolean(),
  }),
});
