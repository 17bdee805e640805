/**
 * Money is integer fen everywhere in the service (1 元 = 100 分). The console only formats it:
 * `formatFen(399900)` → `¥3,999.00`. Integer arithmetic only, so no float rounding shows up.
 */
export function formatFen(fen: number, options: { symbol?: boolean } = {}): string {
  if (!Number.isFinite(fen)) return '—';
  const whole = Math.round(fen);
  const negative = whole < 0;
  const abs = Math.abs(whole);
  const yuan = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const cents = String(abs % 100).padStart(2, '0');
  return `${negative ? '-' : ''}${options.symbol === false ? '' : '¥'}${yuan}.${cents}`;
}

/** Price × periods, in fen; the server computes the same (`amount = price × quantity`). */
export function orderTotalFen(priceFen: number, quantity: number): number {
  return priceFen * quantity;
}

/** "30 天", "1 年", "2 年" — a package's period, as people say it. */
export function formatDuration(days: number): string {
  if (days > 0 && days % 365 === 0) return `${days / 365} 年`;
  if (days > 0 && days % 30 === 0 && days < 365) return `${days / 30} 个月`;
  return `${days} 天`;
}
