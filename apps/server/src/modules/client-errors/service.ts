import { type ClientError, type ClientErrorKind, clientErrorCalls } from '@wxc/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { newId } from '../../lib/crypto.js';
import * as repo from './repo.js';
import { pathOnly, scrubSecrets } from './scrub.js';

export interface ClientErrorReport {
  message: string;
  stack: string;
  source: string;
  kind: ClientErrorKind;
}

const { CLIENT_ERROR_MESSAGE_MAX, CLIENT_ERROR_SOURCE_MAX, CLIENT_ERROR_STACK_MAX, CLIENT_ERRORS_KEPT } =
  clientErrorCalls;

/** Who reads the log: an operator (role admin) reads every company's, anyone else their own. */
export interface ClientErrorReader {
  id: string;
  roles: readonly string[];
}

/**
 * The console's error log: what the production console caught, scrubbed of secrets (scrub.ts),
 * the page's path only, the newest `keep` per company.
 */
export function createClientErrorService(db: Kysely<DB>, options: { keep?: number } = {}) {
  const keep = options.keep ?? CLIENT_ERRORS_KEPT;
  return {
    async report(companyId: string, report: ClientErrorReport, userAgent: string, now = Date.now()) {
      await repo.insert(db, {
        id: newId(),
        company_id: companyId,
        kind: report.kind,
        message: scrubSecrets(report.message).slice(0, CLIENT_ERROR_MESSAGE_MAX),
        stack: scrubSecrets(report.stack).slice(0, CLIENT_ERROR_STACK_MAX),
        source: pathOnly(report.source, CLIENT_ERROR_SOURCE_MAX),
        user_agent: scrubSecrets(userAgent).slice(0, 255),
        created_at: now,
      });
      await repo.trim(db, companyId, keep);
    },

    async list(reader: ClientErrorReader, page: number, pageSize: number) {
      const { rows, total } = await repo.page(
        db,
        reader.roles.includes('admin') ? null : reader.id,
        (page - 1) * pageSize,
        pageSize,
      );
      const list: ClientError[] = rows.map((r) => ({
        id: r.id,
        at: Number(r.created_at),
        kind: r.kind,
        message: r.message,
        stack: r.stack,
        source: r.source,
        userAgent: r.user_agent,
        companyId: r.company_id,
        companyName: r.company_name || r.account || '',
      }));
      return { list, total, page, pageSize };
    },
  };
}

export type ClientErrorService = ReturnType<typeof createClientErrorService>;
