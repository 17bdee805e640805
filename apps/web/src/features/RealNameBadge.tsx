import { SafetyCertificateOutlined } from '@ant-design/icons';
import { REAL_NAME_LABELS, type RealNameStatusValue } from '@wxc/contract/domain';
import { Button, Modal, Tag } from 'antd';
import { useState } from 'react';
import { useSession } from '../stores/session';
import { realNameStatus } from '../utils/labels';

export { realNameStatus };

const COLORS: Record<RealNameStatusValue, string> = {
  0: 'warning',
  1: 'success',
  2: 'processing',
  3: 'error',
};

const EXPLAIN: Record<RealNameStatusValue, string> = {
  0: '您的账号尚未完成实名认证。完成认证需上传社保缴纳记录和营业执照两张图片（png / jpg，每张不超过 2M）。',
  1: '您的账号已通过实名认证，可以正常使用全部服务。',
  2: '您提交的实名认证资料正在审核中，审核通过后即可使用全部服务。',
  3: '您提交的实名认证资料未通过审核，请根据驳回原因修改后重新提交。',
};

/**
 * The verification badge in the top bar and its entry. The upload dialog itself comes with the
 * real-name issue; until then the entry explains the status and says so — no fake uploads.
 */
export function RealNameBadge({ compact = false }: { compact?: boolean }) {
  const value = useSession((s) => s.user?.realNameUser);
  const status = realNameStatus(value);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="realname-badge"
        onClick={() => setOpen(true)}
        aria-label={`实名认证：${REAL_NAME_LABELS[status]}`}
        data-status={status}
      >
        <Tag color={COLORS[status]} icon={<SafetyCertificateOutlined />} variant="filled">
          {compact ? REAL_NAME_LABELS[status] : `实名认证：${REAL_NAME_LABELS[status]}`}
        </Tag>
      </button>
      <Modal
        title="实名认证"
        open={open}
        onCancel={() => setOpen(false)}
        footer={
          <Button type="primary" onClick={() => setOpen(false)}>
            知道了
          </Button>
        }
      >
        <p>
          当前状态：<Tag color={COLORS[status]}>{REAL_NAME_LABELS[status]}</Tag>
        </p>
        <p>{EXPLAIN[status]}</p>
        {status === 1 ? null : (
          <p className="muted">
            在线上传认证资料的功能即将上线，届时可直接在此提交；如需加急办理，请联系客服。
          </p>
        )}
      </Modal>
    </>
  );
}
