import type { CallDef } from '@wxc/contract/call';
import { SUPPORT_VIEW_HEADER } from '@wxc/contract/constants';
import { create } from 'zustand';
import { isOperator } from '../utils/identity';
import { onLogout, useSession } from './session';

/**
 * The operator's read-only support view (issue 11 §1): the one company whose console an operator
 * is reading, or none. Kept per browser tab (sessionStorage), so a reload stays on the company and a
 * logout forgets it.
 *
 * While a company is chosen, every customer call the console sends names it in `x-view-company`
 * (main.tsx registers `supportViewHeaders` as the requesters' header source, so uploads and every
 * other requester do the same). The service answers the contract's `supportRead` calls as that
 * company, refuses every other customer call, and audits each read. Pages ask `useReadOnly()` to leave their write buttons
 * out. The view only counts for an operator: a customer never sends the header.
 */
export interface ViewedCompany {
  id: string;
  companyName: string;
  companyAccount: string;
  /** Access mode (1 SaaS, 2 本地部署, 3 托管, 4 私有化): what the tier rule checks. */
  accountType: number;
  realNameStatus: number;
}

const STORAGE_KEY = 'wxc-support-view';

function isViewedCompany(value: unknown): value is ViewedCompany {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    v.id !== '' &&
    typeof v.companyName === 'string' &&
    typeof v.companyAccount === 'string' &&
    typeof v.accountType === 'number' &&
    typeof v.realNameStatus === 'number'
  );
}

function load(): ViewedCompany | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return isViewedCompany(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function save(company: ViewedCompany | null): void {
  try {
    if (company) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(company));
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage may be unavailable (private mode): the view then lasts until a reload
  }
}

export const useSupportView = create<{ company: ViewedCompany | null }>(() => ({ company: load() }));

const changeHooks = new Set<() => void>();
/**
 * What else a change of company clears (the shell drops the cached answers of the previous company),
 * run before the new company shows, so no page ever draws one company's data under another's name.
 */
export function onSupportViewChange(hook: () => void): () => void {
  changeHooks.add(hook);
  return () => changeHooks.delete(hook);
}

function set(company: ViewedCompany | null): void {
  const current = useSupportView.getState().company;
  if ((current?.id ?? null) !== (company?.id ?? null)) for (const hook of changeHooks) hook();
  save(company);
  useSupportView.setState({ company });
}

/** Starts (or switches) the support view on this company. */
export function viewCompany(company: ViewedCompany): void {
  const { id, companyName, companyAccount, accountType, realNameStatus } = company;
  set({ id, companyName, companyAccount, accountType, realNameStatus });
}

/** Ends the support view. */
export function leaveSupportView(): void {
  set(null);
}

onLogout(() => {
  save(null);
  useSupportView.setState({ company: null });
});

const userIsOperator = (user: ReturnType<typeof useSession.getState>['user']) =>
  Boolean(user && isOperator(user));

/** The company an operator is reading now; null for customers and operators outside the view. */
export function supportViewCompany(): ViewedCompany | null {
  return userIsOperator(useSession.getState().user) ? useSupportView.getState().company : null;
}

/** The support view's header for a call: only customer calls, only while an operator views. */
export function supportViewHeaders(def: Pick<CallDef, 'audience'>): Record<string, string> | undefined {
  if (def.audience !== 'customer' && def.audience !== 'customerOrApi') return undefined;
  const company = supportViewCompany();
  return company ? { [SUPPORT_VIEW_HEADER]: company.id } : undefined;
}

/** React: the company being read, or null (customers, operators outside the view). */
export function useViewedCompany(): ViewedCompany | null {
  const company = useSupportView((s) => s.company);
  const operator = useSession((s) => userIsOperator(s.user));
  return operator ? company : null;
}

/**
 * React: true while an operator reads a company's console. Pages leave out (not just disable) every
 * button that would change something.
 */
export function useReadOnly(): boolean {
  return useViewedCompany() !== null;
}

/** React: whether the signed-in user is an operator. */
export function useIsOperator(): boolean {
  return useSession((s) => userIsOperator(s.user));
}

/**
 * React: the access mode of the company on screen (the viewed company's in the support view, else
 * the signed-in customer's); undefined before the user info is loaded.
 */
export function useCompanyAccountType(): number | undefined {
  const viewed = useViewedCompany();
  const own = useSession((s) => s.user?.accountType);
  return viewed ? viewed.accountType : own;
}
