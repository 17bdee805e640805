import { type ApiParam, allCalls, type CallDef } from '@wxc/contract';
import { AppError } from '../../lib/errors.js';
import { paramsOf } from './params.js';

export interface CatalogueEntry {
  id: string;
  group: string;
  name: string;
  path: string;
  method: string;
  description: string;
}

/**
 * The online tester's catalogue: every call programs may make (`auth: 'api'`), in contract order,
 * and each one's parameters generated from its request schema. Built once; the contract is static.
 */
export function createCatalogueService(calls: readonly CallDef[] = allCalls) {
  const apiCalls = calls.filter((c) => c.audience === 'customerOrApi');
  const entries: CatalogueEntry[] = apiCalls.map((c) => ({
    id: c.id,
    group: c.tag,
    name: c.summary,
    path: c.path,
    method: c.method,
    description: c.description ?? '',
  }));
  const byPath = new Map(apiCalls.map((c) => [c.path, c]));
  const paramCache = new Map<string, ApiParam[]>();

  return {
    list(keyword?: string): { list: CatalogueEntry[] } {
      const k = keyword?.trim().toLowerCase();
      if (!k) return { list: entries };
      return {
        list: entries.filter((e) =>
          [e.name, e.path, e.description, e.group].some((s) => s.toLowerCase().includes(k)),
        ),
      };
    },

    params(path: string): { path: string; list: ApiParam[] } {
      const call = byPath.get(path.trim());
      if (!call) throw new AppError('NOT_FOUND', `接口不存在：${path}`);
      let list = paramCache.get(call.path);
      if (!list) {
        list = paramsOf(call.request);
        paramCache.set(call.path, list);
      }
      return { path: call.path, list };
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
