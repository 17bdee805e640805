import { DeleteOutlined, PictureOutlined, UploadOutlined } from '@ant-design/icons';
import * as realNameCalls from '@wxc/contract/calls/realname';
import {
  REAL_NAME_SLOT_LABELS,
  REAL_NAME_SLOTS,
  type RealNameInfo,
  type RealNameSlot,
} from '@wxc/contract/calls/realname';
import { REAL_NAME_LABELS } from '@wxc/contract/domain';
import { Alert, Button, Modal, Progress, Spin, Tag } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { call } from '../../api/client';
import { useFeedback } from '../../components/feedback';
import { setUser, useSession } from '../../stores/session';
import { realNameStatus } from '../../utils/labels';
import {
  ACCEPT,
  canSubmit,
  checkImageFile,
  maySubmit,
  planSubmission,
  type Slots,
  type SlotValue,
} from './logic';
import './realname.css';
import { uploadForm } from './upload';

const EMPTY: Slots = { social: { kind: 'empty' }, licence: { kind: 'empty' } };

const STATUS_COLORS = { 0: 'warning', 1: 'success', 2: 'processing', 3: 'error' } as const;

function slotsFrom(info: RealNameInfo | null): Slots {
  const out: Slots = { ...EMPTY };
  for (const img of info?.images ?? []) out[img.slot] = { kind: 'existing', id: img.id, url: img.url };
  return out;
}

/** Keeps the session's status (and so the top-bar badge) in step with an answer. */
function applyStatus(status: number) {
  const user = useSession.getState().user;
  if (user && user.realNameUser !== status) setUser({ ...user, realNameUser: status });
}

/**
 * The real-name dialog (spec §3, §4, §5): two slots, 社保记录 and 营业执照; png/jpeg/jpg; one file per
 * slot; at most 2 MB ('上传文件最大为2M'); previews; an upload progress bar; OK disabled until an
 * image is there. Under review or refused users can re-upload; unchanged images are re-submitted as
 * they are. A refused user sees the reason.
 */
export default function RealNameDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { message } = useFeedback();
  const [info, setInfo] = useState<RealNameInfo | null>(null);
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [slots, setSlots] = useState<Slots>(EMPTY);
  const [progress, setProgress] = useState<number | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const previews = useRef<string[]>([]);
  const sessionStatus = realNameStatus(useSession((s) => s.user?.realNameUser));

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    setLoading(true);
    setLoadError(null);
    setProgress(null);
    call(realNameCalls.getRealNameImgs, {}, { signal: controller.signal, quiet: true })
      .then((answer) => {
        setInfo(answer);
        setSlots(slotsFrom(answer));
        applyStatus(answer.status);
      })
      .catch((err: Error) => {
        if (!controller.signal.aborted) setLoadError(err.message);
      })
      .finally(() => setLoading(false));
    return () => controller.abort();
  }, [open]);

  // Object URLs of previews are released when the dialog closes.
  useEffect(() => {
    if (open) return;
    for (const url of previews.current) URL.revokeObjectURL(url);
    previews.current = [];
  }, [open]);

  const status = info ? realNameStatus(info.status) : sessionStatus;
  const editable = maySubmit(status) && !submitting;

  function choose(slot: RealNameSlot, file: File | undefined) {
    if (!file) return;
    const problem = checkImageFile(file);
    if (problem) {
      message.warning(problem);
      return;
    }
    const preview = URL.createObjectURL(file);
    previews.current.push(preview);
    setSlots((s) => ({ ...s, [slot]: { kind: 'new', file, preview } }));
  }

  async function submit() {
    const plan = planSubmission(slots);
    if (plan.kind === 'missing') {
      message.warning(plan.message);
      return;
    }
    setSubmitting(true);
    setProgress(0);
    try {
      let answer: RealNameInfo;
      if (plan.kind === 'source') {
        const form = new FormData();
        form.append('imgs', plan.files[0], plan.files[0].name);
        form.append('imgs', plan.files[1], plan.files[1].name);
        answer = await uploadForm(realNameCalls.uploadRealNameSource, form, setProgress);
      } else {
        const ids = { ...plan.keep };
        const share = plan.uploads.length;
        for (const [i, { slot, file }] of plan.uploads.entries()) {
          const form = new FormData();
          form.append('img', file, file.name);
          const uploaded = await uploadForm(realNameCalls.uploadImg, form, (p) =>
            setProgress(Math.round(((i + p / 100) / share) * 100)),
          );
          ids[slot] = uploaded.id;
        }
        setProgress(100);
        answer = await call(realNameCalls.updateRealNameImgs, { imgs: [ids.social!, ids.licence!] });
      }
      setInfo(answer);
      setSlots(slotsFrom(answer));
      applyStatus(answer.status);
      message.success('已提交实名认证资料，请等待审核');
      onClose();
    } catch {
      // the request layer has shown the service's message
      setProgress(null);
    } finally {
      setSubmitting(false);
    }
  }

  const body = loading ? (
    <div className="rn-loading">
      <Spin />
    </div>
  ) : loadError ? (
    <Alert type="error" showIcon title="实名认证资料加载失败" description={loadError} />
  ) : (
    <>
      <div className="rn-status">
        当前状态：<Tag color={STATUS_COLORS[status]}>{REAL_NAME_LABELS[status]}</Tag>
      </div>
      {status === 3 && info?.refuseReason ? (
        <Alert
          className="rn-alert"
          type="error"
          showIcon
          title="未通过审核"
          description={<span data-testid="refuse-reason">驳回原因：{info.refuseReason}</span>}
        />
      ) : null}
      {status === 2 ? (
        <Alert className="rn-alert" type="info" showIcon title="资料审核中，如需修改可重新上传后提交" />
      ) : null}
      {status === 1 ? <Alert className="rn-alert" type="success" showIcon title="已通过实名认证" /> : null}
      {status === 0 ? (
        <p className="rn-hint">请上传社保缴纳记录和营业执照：png、jpeg、jpg 格式，每张不超过 2M。</p>
      ) : null}
      <div className="rn-slots">
        {REAL_NAME_SLOTS.map((slot) => (
          <ImageSlot
            key={slot}
            slot={slot}
            value={slots[slot]}
            editable={editable}
            onChoose={(file) => choose(slot, file)}
            onRemove={() => setSlots((s) => ({ ...s, [slot]: { kind: 'empty' } }))}
          />
        ))}
      </div>
      {progress !== null ? (
        <Progress
          percent={progress}
          size="small"
          status={submitting ? 'active' : 'normal'}
          aria-label="上传进度"
        />
      ) : null}
    </>
  );

  return (
    <Modal
      title="实名认证"
      open={open}
      onCancel={submitting ? undefined : onClose}
      maskClosable={!submitting}
      width={640}
      destroyOnHidden
      footer={
        maySubmit(status) ? (
          <>
            <Button onClick={onClose} disabled={submitting}>
              取消
            </Button>
            <Button
              type="primary"
              onClick={submit}
              loading={submitting}
              disabled={loading || !!loadError || !canSubmit(slots)}
            >
              确定
            </Button>
          </>
        ) : (
          <Button type="primary" onClick={onClose}>
            知道了
          </Button>
        )
      }
    >
      {body}
    </Modal>
  );
}

function ImageSlot({
  slot,
  value,
  editable,
  onChoose,
  onRemove,
}: {
  slot: RealNameSlot;
  value: SlotValue;
  editable: boolean;
  onChoose: (file: File | undefined) => void;
  onRemove: () => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const label = REAL_NAME_SLOT_LABELS[slot];
  const src = value.kind === 'new' ? value.preview : value.kind === 'existing' ? value.url : null;
  return (
    <section className="rn-slot" aria-label={label} data-slot={slot}>
      <div className="rn-slot-title">{label}</div>
      <div className="rn-preview">
        {src ? (
          <img src={src} alt={`${label}预览`} />
        ) : (
          <div className="rn-placeholder">
            <PictureOutlined />
            <span>未选择图片</span>
          </div>
        )}
        {value.kind === 'new' ? <span className="rn-badge-new">新选择</span> : null}
      </div>
      {editable ? (
        <div className="rn-actions">
          <input
            ref={input}
            type="file"
            accept={ACCEPT}
            hidden
            aria-label={`选择${label}图片`}
            onChange={(e) => {
              onChoose(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
          <Button size="small" icon={<UploadOutlined />} onClick={() => input.current?.click()}>
            {value.kind === 'empty' ? '选择图片' : '重新选择'}
          </Button>
          {value.kind === 'new' ? (
            <Button size="small" icon={<DeleteOutlined />} onClick={onRemove} aria-label={`移除${label}`}>
              移除
            </Button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
