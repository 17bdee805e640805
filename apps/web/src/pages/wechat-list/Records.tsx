import { useQuery } from '@tanstack/react-query';
import * as recordCalls from '@wxc/contract/calls/records';
import { PAGE_SIZE_DEFAULT } from '@wxc/contract/constants';
import { Button, Empty, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import type { z } from 'zod';
import { call } from '../../api/client';
import { PagedList } from '../../components/PagedList';
import { LOGIN_RESULT_LABELS } from '../../features/messaging/labels';
import { messagingKeys } from '../../features/messaging/queries';
import { formatTime } from '../../utils/time';

type LoginRecord = z.infer<typeof recordCalls.loginRecordSchema>;
type Device = z.infer<typeof recordCalls.deviceSchema>;

const usePaging = () => {
  const [paging, setPaging] = useState({ page: 1, pageSize: PAGE_SIZE_DEFAULT });
  const onPage = (page: number, pageSize: number) =>
    setPaging((p) => ({ page: pageSize === p.pageSize ? page : 1, pageSize }));
  return [paging, onPage] as const;
};

function ResultTag({ result }: { result: string }) {
  const r = LOGIN_RESULT_LABELS[result] ?? { text: result, color: 'default' };
  return <Tag color={r.color}>{r.text}</Tag>;
}

/** 登录记录: one row per QR login attempt, newest first. */
export function LoginRecords() {
  const [paging, onPage] = usePaging();
  const query = useQuery({
    queryKey: messagingKeys.loginRecords(paging),
    queryFn: ({ signal }) => call(recordCalls.queryWxLoginRecord, paging, { signal }),
    placeholderData: (p) => p,
  });
  const columns: TableColumnsType<LoginRecord> = [
    {
      title: '账号',
      key: 'who',
      width: 200,
      render: (_, r) =>
        r.wxid ? (
          <span>
            {r.nickname}
            <span className="muted block">{r.wxid}</span>
          </span>
        ) : (
          <span className="muted">未登录</span>
        ),
    },
    { title: '结果', dataIndex: 'result', width: 100, render: (x: string) => <ResultTag result={x} /> },
    {
      title: '设备',
      dataIndex: 'deviceId',
      width: 170,
      ellipsis: true,
      render: (d: string) => <code>{d}</code>,
    },
    { title: '地区', dataIndex: 'proxy', width: 80, render: (p: string) => p || '—' },
    { title: '开始', dataIndex: 'startedAt', width: 165, render: (t: number) => formatTime(t) },
    {
      title: '登录',
      dataIndex: 'loggedInAt',
      width: 165,
      render: (t: number | null) => formatTime(t) || '—',
    },
    { title: '结束', dataIndex: 'endedAt', width: 165, render: (t: number | null) => formatTime(t) || '—' },
    { title: '下线原因', dataIndex: 'logoutReason', ellipsis: true, render: (r: string | null) => r || '—' },
  ];
  return (
    <PagedList<LoginRecord>
      label="登录记录"
      query={query}
      columns={columns}
      rowKey="id"
      onPage={onPage}
      scrollX={1250}
      empty={
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description="还没有登录记录：在「账号」中添加账号，每次扫码都会记在这里"
        />
      }
      card={(r) => (
        <>
          <div className="list-card-head">
            <span>{r.nickname ?? '未登录'}</span>
            <ResultTag result={r.result} />
          </div>
          <dl>
            {r.wxid ? (
              <>
                <dt>wxid</dt>
                <dd>{r.wxid}</dd>
              </>
            ) : null}
            <dt>开始</dt>
            <dd>{formatTime(r.startedAt)}</dd>
            <dt>结束</dt>
            <dd>{formatTime(r.endedAt) || '—'}</dd>
            {r.logoutReason ? (
              <>
                <dt>原因</dt>
                <dd>{r.logoutReason}</dd>
              </>
            ) : null}
          </dl>
        </>
      )}
    />
  );
}

/** 设备记录: cloud devices the accounts used; log in again on one of them. */
export function DeviceRecords({
  onRelogin,
}: {
  onRelogin?: ((deviceId: string, name: string) => void) | undefined;
}) {
  const [paging, onPage] = usePaging();
  const query = useQuery({
    queryKey: messagingKeys.devices(paging),
    queryFn: ({ signal }) => call(recordCalls.queryDeviceRecord, paging, { signal }),
    placeholderData: (p) => p,
  });
  // Absent in the support view (read-only).
  const action = (d: Device) =>
    onRelogin ? (
      <Button type="link" size="small" onClick={() => onRelogin(d.deviceId, d.nickname ?? d.name)}>
        在此设备登录
      </Button>
    ) : null;
  const columns: TableColumnsType<Device> = [
    {
      title: '设备',
      key: 'device',
      width: 220,
      render: (_, d) => (
        <span>
          {d.name}
          <code className="block muted">{d.deviceId}</code>
        </span>
      ),
    },
    {
      title: '最近账号',
      key: 'who',
      width: 180,
      render: (_, d) => (d.wxid ? `${d.nickname ?? ''}（${d.wxid}）` : '—'),
    },
    { title: '地区', dataIndex: 'proxy', width: 80, render: (p: string) => p || '—' },
    { title: '登录次数', dataIndex: 'loginCount', width: 90, align: 'right' },
    {
      title: '最近登录',
      dataIndex: 'lastLoginAt',
      width: 165,
      render: (t: number | null) => formatTime(t) || '—',
    },
    { title: '创建', dataIndex: 'createdAt', width: 165, render: (t: number) => formatTime(t) },
    ...(onRelogin
      ? [
          {
            title: '操作',
            key: 'actions',
            width: 120,
            fixed: 'right' as const,
            render: (_: unknown, d: Device) => action(d),
          },
        ]
      : []),
  ];
  return (
    <PagedList<Device>
      label="设备记录"
      query={query}
      columns={columns}
      rowKey="deviceId"
      onPage={onPage}
      scrollX={1050}
      empty={
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description="还没有设备记录：账号第一次扫码登录时会分配一台云端设备"
        />
      }
      card={(d) => (
        <>
          <div className="list-card-head">
            <span>{d.name}</span>
            <span className="muted">{d.loginCount} 次</span>
          </div>
          <dl>
            <dt>设备</dt>
            <dd>
              <code>{d.deviceId}</code>
            </dd>
            <dt>账号</dt>
            <dd>{d.wxid ? `${d.nickname ?? ''}（${d.wxid}）` : '—'}</dd>
            <dt>最近登录</dt>
            <dd>{formatTime(d.lastLoginAt) || '—'}</dd>
          </dl>
          {onRelogin ? <span className="table-actions">{action(d)}</span> : null}
        </>
      )}
    />
  );
}
