import { useQuery } from '@tanstack/react-query';
import * as statisticsCalls from '@wxc/contract/calls/statistics';
import { PAGE_SIZE_DEFAULT } from '@wxc/contract/constants';
import { Button, Empty, Select, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { call } from '../../api/client';
import { Card } from '../../components/Card';
import { PagedList } from '../../components/PagedList';
import { messagingKeys } from '../../features/messaging/queries';
import { AccountStatusTag, WxAccountCardHead, WxAvatar } from '../../features/messaging/widgets';
import { useReadOnly } from '../../stores/support-view';
import { formatTime } from '../../utils/time';

/*
 * 账号明细, the last section of the dashboard: its own chunk (antd Table, Pagination and Select come
 * with it), loaded when scrolled near (index.tsx).
 */

type DetailRow = z.infer<typeof statisticsCalls.accountDetails.response>['list'][number];

export default function AccountDetails() {
  const [filter, setFilter] = useState<{
    page: number;
    pageSize: number;
    status?: 'online' | 'offline' | undefined;
  }>({
    page: 1,
    pageSize: PAGE_SIZE_DEFAULT,
  });
  const navigate = useNavigate();
  const readOnly = useReadOnly();
  const query = useQuery({
    queryKey: messagingKeys.details(filter),
    queryFn: ({ signal }) => call(statisticsCalls.accountDetails, filter, { signal }),
    placeholderData: (p) => p,
  });
  const empty = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={filter.status ? '没有该状态的账号' : '还没有登录过微信账号'}
    >
      {filter.status || readOnly ? null : (
        <Button type="primary" onClick={() => navigate('/wechatList/index?add=1')}>
          去添加账号
        </Button>
      )}
    </Empty>
  );
  const columns: TableColumnsType<DetailRow> = [
    {
      title: '账号',
      key: 'account',
      width: 220,
      render: (_, a) => (
        <span className="account-cell">
          <WxAvatar src={a.avatar} name={a.nickname} />
          <span className="account-cell-text">
            <strong>{a.nickname}</strong>
            <span className="muted block">{a.wxid}</span>
          </span>
        </span>
      ),
    },
    { title: '子账号', dataIndex: 'subAccountName', width: 120, ellipsis: true },
    {
      title: '状态',
      dataIndex: 'status',
      width: 80,
      render: (s: 'online' | 'offline') => <AccountStatusTag status={s} />,
    },
    { title: '今日发出', dataIndex: 'sentToday', width: 90, align: 'right' },
    { title: '今日收到', dataIndex: 'receivedToday', width: 90, align: 'right' },
    { title: '最近登录', dataIndex: 'lastLoginAt', width: 165, render: (t: number) => formatTime(t) },
    {
      title: '到期',
      dataIndex: 'expireAt',
      width: 120,
      render: (t: number | null) =>
        t ? formatTime(t, 'YYYY-MM-DD') : <span className="muted">跟随套餐</span>,
    },
  ];
  const changePage = (page: number, pageSize: number) =>
    setFilter((f) => ({ ...f, page: pageSize === f.pageSize ? page : 1, pageSize }));
  return (
    <Card
      title="账号明细"
      className="dash-card"
      extra={
        <Select
          size="small"
          aria-label="账号状态"
          allowClear
          placeholder="全部状态"
          style={{ width: 110 }}
          value={filter.status}
          onChange={(status) => setFilter((f) => ({ ...f, page: 1, status }))}
          options={[
            { value: 'online', label: '在线' },
            { value: 'offline', label: '离线' },
          ]}
        />
      }
    >
      <PagedList<DetailRow>
        query={query}
        columns={columns}
        rowKey="wxid"
        label="账号明细"
        unit="个"
        empty={empty}
        onPage={changePage}
        card={(a) => (
          <>
            <WxAccountCardHead account={a} />
            <dl>
              <dt>wxid</dt>
              <dd>{a.wxid}</dd>
              <dt>今日</dt>
              <dd>
                发出 {a.sentToday} · 收到 {a.receivedToday}
              </dd>
              <dt>最近登录</dt>
              <dd>{formatTime(a.lastLoginAt)}</dd>
            </dl>
          </>
        )}
      />
    </Card>
  );
}
