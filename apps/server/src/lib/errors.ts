import { ErrorCatalogue, type ErrorName } from '@wxc/contract';

/**
 * A failure the client should hear about: a catalogue entry, optionally with a more precise
 * message (safe to show). Anything else thrown is a bug and becomes a generic "500".
 * It keeps the entry's name, so code tells failures apart by name (`err.is('QUOTA_EXHAUSTED')`),
 * never by comparing code strings.
 */
export class AppError extends Error {
  readonly errorName: ErrorName;
  readonly code: string;
  readonly status: number;

  constructor(name: ErrorName, message?: string) {
    const entry = ErrorCatalogue[name];
    super(message ?? entry.message);
    this.name = 'AppError';
    this.errorName = name;
    this.code = entry.code;
    this.status = entry.status;
  }

  /** Whether this is one of the named catalogue entries. */
  is(...names: ErrorName[]): boolean {
    return names.includes(this.errorName);
  }
}
