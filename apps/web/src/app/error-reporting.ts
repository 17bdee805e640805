import * as clientErrorCalls from '@wxc/contract/calls/client-errors';
import { call } from '../api/client';
import { getToken } from '../stores/session';
import { createErrorReporter } from './error-reporter';

/**
 * The console's one error reporter (the error log, /error-log/log): window errors, unhandled
 * rejections and the route error boundary (RootLayout) report here. Installed by main.tsx in
 * production builds only; sent through the console's client, quietly (no toast, no dialog).
 */
export const errorReporter = createErrorReporter({
  send: (report) => call(clientErrorCalls.report, report, { quiet: true }),
  loggedIn: () => Boolean(getToken()),
  path: () => location.pathname,
});

let installed = false;

/** Starts capturing window errors and unhandled rejections (once). */
export function installErrorReporting(): void {
  if (installed) return;
  installed = true;
  window.addEventListener('error', (event) => {
    // Resource load failures (an image, a script tag) are not script errors.
    if (!(event instanceof ErrorEvent)) return;
    errorReporter.report('error', event.error, event.message);
  });
  window.addEventListener('unhandledrejection', (event) => {
    errorReporter.report('unhandledrejection', event.reason, 'Unhandled promise rejection');
  });
}

/** Whether this build captures errors (production builds only). */
export const errorReportingOn = import.meta.env.PROD;
