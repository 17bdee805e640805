import { useMutation } from '@tanstack/react-query';
import * as realNameCalls from '@wxc/contract/calls/realname';
import {
  REAL_NAME_SLOT_LABELS,
  REFUSE_REASON_MAX,
  REVIEW_STATE_LABELS,
  type RealNameReview,
  type ReviewState,
} from '@wxc/contract/calls/realname';
import { PAGE_SIZE_DEFAULT } from '@wxc/contract/constants';
import { Button, Empty, Image, Input, Modal, Pagination, Segmented, Space, Tag } from 'antd';
import { useState } from 'react';
import { call } from '../../api/client';
import { useFeedback } from '../../components/feedback';
import { QueryState } from '../../components/QueryState';
import { formatTime } from '../../utils/time';
import { type ReviewFilter, useInvalidateOps, useReviews } from './queries';

const STATE_COLORS: Record<ReviewState, string> = {
  pending: 'processing',
  passed: 'success',
  refused: 'error',
  superseded: 'default',
};

type View = 'pending' | 'history' | ReviewState;
const VIEWS: { value: View; label: string }[] = [
  { value: 'pending', label: '待审核' },
  { value: 'history', label: '全部记录' },
  { value: 'passed', label: '已通过' },
  { value: 'refused', label: '已驳回' },
];

/** 实名审核: the queue (oldest first) with both images side by side, pass / refuse; the history. */
export function Reviews() {
  const [view, setView] = useState<View>('pending');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const filter: ReviewFilter = {
    page,
    pageSize: PAGE_SIZE_DEFAULT,
    ...(view === 'history' ? {} : { state: view }),
    ...(keyword ? { keyword } : {}),
  };
  const query = useReviews(filter);
  return (
    <div className="ops-section">
      <div className="ops-toolbar">
        <Segmented<View>
          options={VIEWS}
          value={view}
          onChange={(v) => {
            setView(v);
            setPage(1);
          }}
        />
        <Input.Search
          allowClear
          placeholder="公司名称 / 账号"
          className="ops-search"
          onSearch={(v) => {
            setKeyword(v.trim());
            setPage(1);
          }}
        />
      </div>
      <QueryState
        query={query}
        isEmpty={(d) => d.list.length === 0}
        empty={<Empty description={view === 'pending' ? '暂无待审核的实名资料' : '暂无记录'} />}
      >
        {(data) => (
          <>
            <div className="ops-review-list">
              {data.list.map((r) => (
                <ReviewCard key={r.id} review={r} />
              ))}
            </div>
            {data.total > data.pageSize ? (
              <Pagination
                className="ops-pager"
                current={data.page}
                pageSize={data.pageSize}
                total={data.total}
                onChange={setPage}
                showSizeChanger={false}
                size="small"
              />
            ) : null}
          </>
        )}
      </QueryState>
    </div>
  );
}

function ReviewCard({ review }: { review: RealNameReview }) {
  const { message } = useFeedback();
  const invalidate = useInvalidateOps();
  const [refusing, setRefusing] = useState(false);
  const [reason, setReason] = useState('');
  const pass = useMutation({
    mutationFn: () => call(realNameCalls.passRealNameAuth, { userId: review.userId }),
    onSuccess: () => {
      void message.success(`已通过「${review.companyName}」的实名认证`);
      void invalidate();
    },
  });
  const refuse = useMutation({
    mutationFn: () =>
      call(realNameCalls.refuseRealNameAuth, { userId: review.userId, reason: reason.trim() }),
    onSuccess: () => {
      void message.success(`已驳回「${review.companyName}」的实名认证`);
      setRefusing(false);
      setReason('');
      void invalidate();
    },
  });
  const reasonOk = reason.trim().length >= 2;
  return (
    <article
      className="ops-card ops-review"
      aria-label={`${review.companyName} 的实名资料`}
      data-state={review.state}
    >
      <header className="ops-review-head">
        <div>
          <strong>{review.companyName}</strong>
          <span className="ops-muted"> {review.companyAccount}</span>
        </div>
        <Tag color={STATE_COLORS[review.state]}>{REVIEW_STATE_LABELS[review.state]}</Tag>
      </header>
      <div className="ops-review-images">
        <Image.PreviewGroup>
          {review.images.map((img) => (
            <figure key={img.id} className="ops-review-image">
              <Image src={img.url} alt={REAL_NAME_SLOT_LABELS[img.slot]} height={160} />
              <figcaption>{REAL_NAME_SLOT_LABELS[img.slot]}</figcaption>
            </figure>
          ))}
        </Image.PreviewGroup>
      </div>
      <dl className="ops-review-facts">
        <dt>提交时间</dt>
        <dd>{formatTime(review.submittedAt)}</dd>
        {review.decidedAt ? (
          <>
            <dt>处理</dt>
            <dd>
              {formatTime(review.decidedAt)}
              {review.decidedBy ? `（${review.decidedBy}）` : ''}
            </dd>
          </>
        ) : null}
        {review.refuseReason ? (
          <>
            <dt>驳回原因</dt>
            <dd>{review.refuseReason}</dd>
          </>
        ) : null}
      </dl>
      {review.state === 'pending' ? (
        <Space className="ops-review-actions">
          <Button type="primary" loading={pass.isPending} onClick={() => pass.mutate()}>
            通过
          </Button>
          <Button danger onClick={() => setRefusing(true)}>
            驳回
          </Button>
        </Space>
      ) : null}
      <Modal
        title={`驳回「${review.companyName}」的实名认证`}
        open={refusing}
        onCancel={() => setRefusing(false)}
        okText="驳回"
        okButtonProps={{ danger: true, disabled: !reasonOk, loading: refuse.isPending }}
        onOk={() => refuse.mutate()}
        destroyOnHidden
      >
        <p>驳回原因会显示给客户，请写清需要修改的地方。</p>
        <Input.TextArea
          aria-label="驳回原因"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={REFUSE_REASON_MAX}
          showCount
          rows={4}
          placeholder="例如：营业执照照片不清晰，请重新拍摄上传"
        />
      </Modal>
    </article>
  );
}
