import { RightOutlined, SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import * as operatorCalls from '@wxc/contract/calls/operator';
import { type Company, PACKAGE_STATE_LABELS } from '@wxc/contract/calls/operator';
import { REAL_NAME_LABELS } from '@wxc/contract/domain';
import { Alert, Button, Empty, Input, Skeleton, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { call } from '../../api/client';
import { useViewedCompany } from '../../stores/support-view';
import { accountTypeLabel, realNameStatus } from '../../utils/labels';
import './support-view.css';

const PAGE_SIZE = 8;

/** The typed text, settled for `ms` (a search per pause, not per key). */
function useSettled(value: string, ms = 300): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/**
 * Choose a customer company (operators): search by company name, phone (the company's account) or
 * remark through the operator's `home.registeUser`, newest first; a click picks one.
 */
export function CompanyPicker({
  onPick,
  autoFocus = false,
}: {
  onPick(c: Company): void;
  autoFocus?: boolean;
}) {
  const [text, setText] = useState('');
  const keyword = useSettled(text.trim());
  const current = useViewedCompany();
  const query = useQuery({
    queryKey: ['operator', 'supportPicker', keyword],
    queryFn: ({ signal }) =>
      call(
        operatorCalls.registeUser,
        { page: 1, pageSize: PAGE_SIZE, ...(keyword ? { keyword } : {}) },
        { signal },
      ),
    placeholderData: (previous) => previous,
  });
  return (
    <div className="company-picker">
      <Input
        allowClear
        autoFocus={autoFocus}
        prefix={<SearchOutlined />}
        aria-label="搜索公司"
        placeholder="公司名称 / 手机号 / 备注"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {query.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : query.isError ? (
        <Alert
          type="error"
          showIcon
          title="公司列表加载失败"
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              重试
            </Button>
          }
        />
      ) : query.data.list.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={keyword ? `没有名称、手机号或备注含「${keyword}」的公司` : '还没有注册的公司'}
        />
      ) : (
        <>
          <ul className="company-picker-list" aria-label="公司">
            {query.data.list.map((c) => {
              const rn = realNameStatus(c.realNameStatus);
              const mine = current?.id === c.id;
              return (
                <li key={c.id}>
                  <button
                    type="button"
                    className={mine ? 'company-pick is-current' : 'company-pick'}
                    onClick={() => onPick(c)}
                    aria-label={`查看 ${c.companyName}`}
                    data-testid="company-pick"
                  >
                    <span className="company-pick-main">
                      <strong>{c.companyName}</strong>
                      <span className="company-pick-sub">
                        {c.companyAccount} · {accountTypeLabel(c.accountType)}
                      </span>
                    </span>
                    <span className="company-pick-tags">
                      <Tag color={rn === 1 ? 'success' : rn === 2 ? 'processing' : 'default'}>
                        {REAL_NAME_LABELS[rn]}
                      </Tag>
                      <Tag color={c.packageState === 'active' ? 'success' : 'default'}>
                        {PACKAGE_STATE_LABELS[c.packageState]}
                      </Tag>
                      {mine ? <Tag color="blue">正在查看</Tag> : null}
                    </span>
                    <RightOutlined className="company-pick-go" />
                  </button>
                </li>
              );
            })}
          </ul>
          {query.data.total > query.data.list.length ? (
            <p className="company-picker-more">
              共 {query.data.total} 家，显示最新注册的 {query.data.list.length}{' '}
              家；输入名称或手机号查找其他公司。
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}
