import { ErrorCatalogue, type ErrorName } from '@wxc/contract';

/**
 * A failure the client should hear about: a catalogue entry, optionally with a more precise
 * message (safe to show). Anything else thrown is a bug and becomes a generic "500".
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;

  constructor(name: ErrorName, message?: string) {
    const entry = ErrorCatalogue[name];
    super(message ?? entry.message);
    this.name = 'AppError';
    this.code = entry.code;
    this.status = entry.status;
  }
}

export const fail = (name: ErrorName, message?: string): never => {
  throw new AppError(name, message);
};
