import type { OnboardingStep } from '@wxc/contract/calls/onboarding';

/**
 * The 开始使用 checklist (issue 11 §2): what each of home.gettingStarted's six steps says, where its
 * link goes, and which one is next. The service decides which are done (from the records each step
 * leaves); this only lays them out.
 */
export interface StepInfo {
  title: string;
  text: string;
  action: string;
  /** A console path, or 'realname' for the real-name dialog. */
  to: string;
}

export const STEP_INFO: Record<OnboardingStep, StepInfo> = {
  package: {
    title: '购买套餐',
    text: '选择账号额度与有效期，支付后立即生效。',
    action: '去购买',
    to: '/purchaseRecords/index',
  },
  subAccount: {
    title: '新建子账号',
    text: '子账号是一个 API 应用，有自己的 AppKey / AppSecret，并分到可同时在线的微信账号额度。',
    action: '去新建',
    to: '/accountList/index?open=1',
  },
  login: {
    title: '登录微信账号',
    text: '扫码登录一个微信账号（模拟器：在另一个标签打开二维码链接并确认）。',
    action: '去登录',
    to: '/wechatList/index?add=1',
  },
  message: {
    title: '发送一条消息',
    text: '在模拟演示里给好友发消息，对方会自动回复。',
    action: '去发消息',
    to: '/moniyanshi/index',
  },
  callback: {
    title: '设置回调地址',
    text: '消息、上下线等事件会推送到您的服务器。',
    action: '去设置',
    to: '/onlineTest/index#callbacks',
  },
  realName: {
    title: '实名认证',
    text: '上传社保记录与营业执照，审核通过即完成。',
    action: '去认证',
    to: 'realname',
  },
};

export interface ChecklistRow extends StepInfo {
  key: OnboardingStep;
  done: boolean;
  /** The first step not done yet: the one to do now. */
  next: boolean;
}

export interface Checklist {
  rows: ChecklistRow[];
  done: number;
  total: number;
  allDone: boolean;
}

export function checklist(steps: ReadonlyArray<{ key: OnboardingStep; done: boolean }>): Checklist {
  const nextKey = steps.find((s) => !s.done)?.key;
  const rows = steps.map((s) => ({ ...STEP_INFO[s.key], key: s.key, done: s.done, next: s.key === nextKey }));
  const done = rows.filter((r) => r.done).length;
  return { rows, done, total: rows.length, allDone: rows.length > 0 && done === rows.length };
}

/** Per company, whether its user put the finished checklist away (kept in this browser). */
export const dismissKey = (companyId: string) => `wxc-getting-started-dismissed:${companyId}`;
