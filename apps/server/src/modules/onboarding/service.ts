import { ONBOARDING_STEPS, type OnboardingStep, RealNameStatus } from '@wxc/contract';

/** What the checklist reads, each from the module that owns it. */
export interface OnboardingDeps {
  subscriptions(companyId: string): Promise<{ list: unknown[] }>;
  apiAccounts(companyId: string): Promise<{ list: { callbackUrl: string | null }[] }>;
  companyConfig(companyId: string): Promise<{ defaultCallbackUrl: string | null }>;
  gateway(companyId: string): Promise<{ loggedIn: boolean; sent: boolean }>;
  realName(companyId: string): Promise<{ status: number }>;
}

/**
 * 开始使用: a new customer's first day as six steps, each ticked by the records it leaves behind
 * (never by a flag the console sets), so the list is true whoever did the step and from wherever.
 */
export function createOnboardingService(deps: OnboardingDeps) {
  return {
    async checklist(companyId: string) {
      const [subscriptions, accounts, config, gateway, realName] = await Promise.all([
        deps.subscriptions(companyId),
        deps.apiAccounts(companyId),
        deps.companyConfig(companyId),
        deps.gateway(companyId),
        deps.realName(companyId),
      ]);
      const done: Record<OnboardingStep, boolean> = {
        package: subscriptions.list.length > 0,
        subAccount: accounts.list.length > 0,
        login: gateway.loggedIn,
        message: gateway.sent,
        callback: config.defaultCallbackUrl !== null || accounts.list.some((a) => a.callbackUrl),
        realName: realName.status === RealNameStatus.VERIFIED,
      };
      const steps = ONBOARDING_STEPS.map((key) => ({ key, done: done[key] }));
      return { steps, allDone: steps.every((s) => s.done) };
    },
  };
}

export type OnboardingService = ReturnType<typeof createOnboardingService>;
