import { CheckCircleFilled, CloseOutlined, RightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import * as onboardingCalls from '@wxc/contract/calls/onboarding';
import { Button, Skeleton } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { Card } from '../../components/Card';
import { useSession } from '../../stores/session';
import { useReadOnly, useViewedCompany } from '../../stores/support-view';
import { onboardingKeys } from './keys';
import { type ChecklistRow, checklist, dismissKey } from './steps';
import './onboarding.css';

const RealNameDialog = lazy(() => import('../realname/RealNameDialog'));

function readDismissed(companyId: string | undefined): boolean {
  if (!companyId) return false;
  try {
    return localStorage.getItem(dismissKey(companyId)) === '1';
  } catch {
    return false;
  }
}

/** The answer of home.gettingStarted, kept live (the checklist ticks itself). */
export function useGettingStarted() {
  return useQuery({
    queryKey: onboardingKeys.all,
    queryFn: ({ signal }) => call(onboardingCalls.gettingStarted, {}, { signal }),
    // Live events, commerce writes and the real-name dialog invalidate it; a returning tab refetches.
    staleTime: 0,
    refetchOnWindowFocus: 'always',
  });
}

function Step({
  row,
  index,
  readOnly,
  onRealName,
}: {
  row: ChecklistRow;
  index: number;
  readOnly: boolean;
  onRealName(): void;
}) {
  const navigate = useNavigate();
  const cls = ['gs-step', row.done ? 'is-done' : '', row.next ? 'is-next' : ''].join(' ');
  return (
    <li className={cls} data-testid={`gs-step-${row.key}`} data-done={row.done ? 'true' : 'false'}>
      <span className="gs-mark" aria-hidden>
        {row.done ? <CheckCircleFilled /> : index + 1}
      </span>
      <span className="gs-body">
        <strong>
          {row.title}
          <span className="gs-state">{row.done ? '已完成' : row.next ? '下一步' : '未完成'}</span>
        </strong>
        <span className="gs-text">{row.text}</span>
      </span>
      {row.done || readOnly ? null : (
        <Button
          className="gs-action"
          size="small"
          type={row.next ? 'primary' : 'default'}
          onClick={() => (row.to === 'realname' ? onRealName() : navigate(row.to))}
        >
          {row.action}
          <RightOutlined />
        </Button>
      )}
    </li>
  );
}

/** The checklist's progress, drawn like antd's small line Progress (green once complete). */
function ProgressBar({ done, total }: { done: number; total: number }) {
  const percent = Math.round((done / total) * 100);
  return (
    <div
      className={percent >= 100 ? 'gs-bar is-complete' : 'gs-bar'}
      role="progressbar"
      aria-valuenow={percent}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-label={`已完成 ${done}/${total}`}
    >
      <div className="gs-bar-track" style={{ width: `${percent}%` }} />
    </div>
  );
}

/**
 * 开始使用 on the first dashboard: six steps from buying a package to real-name verification, each
 * ticked by the records it leaves, with a link to where it is done. Once all are done it says so and
 * can be put away (per company, in this browser). In the support view it shows the company's state
 * without links.
 */
export function GettingStarted() {
  const query = useGettingStarted();
  const readOnly = useReadOnly();
  const viewed = useViewedCompany();
  const ownId = useSession((s) => s.user?.id);
  const companyId = viewed?.id ?? ownId;
  const [dismissed, setDismissed] = useState(() => readDismissed(companyId));
  const [realName, setRealName] = useState(false);

  if (query.isError || dismissed) return null;
  if (query.isPending) {
    return (
      <Card title="开始使用" className="dash-card gs-card">
        <Skeleton active paragraph={{ rows: 3 }} />
      </Card>
    );
  }
  const list = checklist(query.data.steps);
  const dismiss = () => {
    try {
      if (companyId) localStorage.setItem(dismissKey(companyId), '1');
    } catch {
      // storage unavailable: hidden until the next visit
    }
    setDismissed(true);
  };
  return (
    <Card
      title="开始使用"
      className="dash-card gs-card"
      data-testid="getting-started"
      data-all-done={list.allDone ? 'true' : 'false'}
      extra={
        <span className="gs-progress">
          <span data-testid="gs-count">
            已完成 {list.done}/{list.total}
          </span>
          <ProgressBar done={list.done} total={list.total} />
          {list.allDone && !readOnly ? (
            <Button
              type="text"
              size="small"
              icon={<CloseOutlined />}
              onClick={dismiss}
              aria-label="收起开始使用"
            >
              收起
            </Button>
          ) : null}
        </span>
      }
    >
      {list.allDone ? (
        <p className="gs-all-done" data-testid="gs-all-done">
          <CheckCircleFilled /> 六个步骤都已完成：{readOnly ? '该公司' : '您'}已经可以通过 API
          收发消息、接收回调了。
        </p>
      ) : null}
      <ol className="gs-steps" aria-label="开始使用的步骤">
        {list.rows.map((row, i) => (
          <Step key={row.key} row={row} index={i} readOnly={readOnly} onRealName={() => setRealName(true)} />
        ))}
      </ol>
      {realName ? (
        <Suspense fallback={null}>
          <RealNameDialog open={realName} onClose={() => setRealName(false)} />
        </Suspense>
      ) : null}
    </Card>
  );
}
