/**
 * The 开始使用 checklist's query key (home.gettingStarted). Anything that can tick a step invalidates
 * it: commerce writes (features/commerce/queries.ts), live events (features/messaging/queries.ts),
 * the real-name dialog, and the tab regaining focus.
 */
export const onboardingKeys = {
  all: ['onboarding'] as const,
};
