import type { ClientErrorKind } from '@wxc/contract/calls/client-errors';
import { CLIENT_ERROR_MESSAGE_MAX, CLIENT_ERROR_STACK_MAX } from '@wxc/contract/calls/client-errors';

/** What the console sends for one caught error (the contract's clientError.report input). */
export interface ClientErrorReport {
  message: string;
  stack: string;
  source: string;
  kind: ClientErrorKind;
}

export interface ErrorReporterDeps {
  /** Sends one report; its failure is swallowed (a report never bothers anyone). */
  send(report: ClientErrorReport): Promise<unknown>;
  /** Reports go only from a logged-in console. */
  loggedIn(): boolean;
  /** The page's path (no query string: it may carry a token or a code). */
  path(): string;
}

/** At most this many reports per page load. */
export const REPORTS_PER_PAGE_LOAD = 10;

/** The message and stack of anything thrown or rejected, cut to the contract's limits. */
export function describeError(error: unknown, fallback = ''): { message: string; stack: string } {
  let message: string;
  let stack = '';
  if (error instanceof Error) {
    message = error.message ? `${error.name}: ${error.message}` : error.name;
    stack = typeof error.stack === 'string' ? error.stack : '';
  } else if (typeof error === 'string') {
    message = error;
  } else if (error === undefined || error === null) {
    message = fallback;
  } else {
    try {
      message = JSON.stringify(error) ?? String(error);
    } catch {
      message = String(error);
    }
  }
  message = message.trim() || fallback.trim() || '未知错误';
  return {
    message: message.slice(0, CLIENT_ERROR_MESSAGE_MAX),
    stack: stack.slice(0, CLIENT_ERROR_STACK_MAX),
  };
}

/**
 * The console's error reporter: each distinct error (message + stack) once per page load, at most
 * `max` per page load, only while logged in, quietly. `settled()` resolves when the reports sent so
 * far are answered (the error-log page refreshes its list then).
 */
export function createErrorReporter(deps: ErrorReporterDeps, max = REPORTS_PER_PAGE_LOAD) {
  const seen = new Set<string>();
  const pending = new Set<Promise<unknown>>();
  return {
    /** Reports `error`; answers whether a report was sent. */
    report(kind: ClientErrorKind, error: unknown, fallbackMessage = ''): boolean {
      if (seen.size >= max || !deps.loggedIn()) return false;
      const { message, stack } = describeError(error, fallbackMessage);
      const key = `${message}\n${stack}`;
      if (seen.has(key)) return false;
      seen.add(key);
      let sending: Promise<unknown>;
      try {
        sending = Promise.resolve(deps.send({ message, stack, source: deps.path(), kind })).catch(() => {});
      } catch {
        return true;
      }
      pending.add(sending);
      void sending.finally(() => pending.delete(sending));
      return true;
    },
    async settled(): Promise<void> {
      await Promise.all([...pending]);
    },
  };
}

export type ErrorReporter = ReturnType<typeof createErrorReporter>;
