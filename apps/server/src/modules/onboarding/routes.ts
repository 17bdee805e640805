import { onboardingCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { OnboardingService } from './service.js';

export function registerOnboardingRoutes(route: Route, onboarding: OnboardingService) {
  route(onboardingCalls.gettingStarted, ({ auth }) => onboarding.checklist(auth.user.id));
}
