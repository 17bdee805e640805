import { Tag } from 'antd';
import './commerce.css';
import { formatFen } from './money';

/** "¥299.00" in the price style. */
export function Money({ fen, strong }: { fen: number; strong?: boolean }) {
  return <span className={strong ? 'money money-strong' : 'money'}>{formatFen(fen)}</span>;
}

export function StatusTag({ status }: { status: 'active' | 'recovered' }) {
  return status === 'active' ? <Tag color="success">使用中</Tag> : <Tag>已回收</Tag>;
}

/** Quota figures shown on 套餐, 我的API and 子账号. */
export function QuotaSummary({
  totalSlots,
  allocatedSlots,
  freeSlots,
}: {
  totalSlots: number;
  allocatedSlots: number;
  freeSlots: number;
}) {
  return (
    <div className="quota-summary" data-testid="quota-summary">
      <div className="quota-item">
        <span className="quota-label">套餐账号数</span>
        <span className="quota-value" data-testid="quota-total">
          {totalSlots}
        </span>
      </div>
      <div className="quota-item">
        <span className="quota-label">已分配</span>
        <span className="quota-value" data-testid="quota-allocated">
          {allocatedSlots}
        </span>
      </div>
      <div className="quota-item">
        <span className="quota-label">可分配</span>
        <span
          className={freeSlots > 0 ? 'quota-value quota-free' : 'quota-value quota-none'}
          data-testid="quota-free"
        >
          {freeSlots}
        </span>
      </div>
    </div>
  );
}
