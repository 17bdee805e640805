import { ACCOUNT_TYPE_LABELS, type AccountTypeValue, type RealNameStatusValue } from '@wxc/contract/domain';

/** Spec §3: 1 verified, 2 under review, 3 failed; 0 or anything else is unverified. */
export function realNameStatus(value: number | null | undefined): RealNameStatusValue {
  return value === 1 || value === 2 || value === 3 ? value : 0;
}

/** The access mode's Chinese name (spec §3 accountType), or 未设置 for an unknown value. */
export function accountTypeLabel(value: number | null | undefined): string {
  return value !== undefined && value !== null && value in ACCOUNT_TYPE_LABELS
    ? ACCOUNT_TYPE_LABELS[value as AccountTypeValue]
    : '未设置';
}
