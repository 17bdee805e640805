import { EyeOutlined, LogoutOutlined, SwapOutlined } from '@ant-design/icons';
import type { Company } from '@wxc/contract/calls/operator';
import { REAL_NAME_LABELS } from '@wxc/contract/domain';
import { Button, Card, Modal } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useRouteMeta } from '../../app/RootLayout';
import { HOME_PATH, OPERATOR_HOME } from '../../app/routes';
import { PageHeader } from '../../components/PageHeader';
import { leaveSupportView, useViewedCompany, viewCompany } from '../../stores/support-view';
import { accountTypeLabel, realNameStatus } from '../../utils/labels';
import { CompanyPicker } from './CompanyPicker';
import './support-view.css';

/**
 * Starts the support view on a company: a customer page stays on screen (now showing that company),
 * anywhere else goes to its 用户中心.
 */
export function useEnterView(): (company: Company) => void {
  const navigate = useNavigate();
  const handle = useRouteMeta();
  return (company) => {
    viewCompany(company);
    if (!handle?.meta.customer) navigate(HOME_PATH);
  };
}

/** Ends the support view and goes back to the operator area's company list. */
export function useLeaveView(): () => void {
  const navigate = useNavigate();
  return () => {
    leaveSupportView();
    navigate(`${OPERATOR_HOME}?tab=companies`);
  };
}

/** The company chooser in a dialog (top bar, banner). */
export function CompanySwitchDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const enter = useEnterView();
  const leave = useLeaveView();
  const viewed = useViewedCompany();
  return (
    <Modal
      open={open}
      title="查看客户控制台（只读）"
      onCancel={onClose}
      destroyOnHidden
      width={560}
      footer={
        viewed ? (
          <Button
            icon={<LogoutOutlined />}
            onClick={() => {
              onClose();
              leave();
            }}
          >
            退出查看
          </Button>
        ) : null
      }
    >
      <p className="support-view-note">
        选择一家公司，以只读方式查看它的控制台：数据与客户看到的一致，不能代客户操作；每次查看都会记入审计日志。
      </p>
      <CompanyPicker
        autoFocus
        onPick={(c) => {
          onClose();
          enter(c);
        }}
      />
    </Modal>
  );
}

/** Top-bar entry for operators: choose a company, or show the one being read. */
export function CompanySwitcher({ compact = false }: { compact?: boolean }) {
  const [open, setOpen] = useState(false);
  const viewed = useViewedCompany();
  const label = viewed ? `正在查看：${viewed.companyName}` : '查看客户控制台';
  return (
    <>
      <Button
        type={viewed ? 'default' : 'text'}
        className={viewed ? 'company-switcher is-viewing' : 'company-switcher'}
        icon={viewed ? <SwapOutlined /> : <EyeOutlined />}
        aria-label={viewed ? `切换查看的公司（正在查看：${viewed.companyName}）` : '查看客户控制台'}
        title={label}
        data-testid="company-switcher"
        onClick={() => setOpen(true)}
      >
        {compact ? null : <span className="company-switcher-text">{label}</span>}
      </Button>
      <CompanySwitchDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}

/**
 * Above every customer page in the support view: whose console this is, that it is read-only and
 * audited, and the ways out.
 */
export function SupportBanner() {
  const viewed = useViewedCompany();
  const leave = useLeaveView();
  const [open, setOpen] = useState(false);
  if (!viewed) return null;
  const rn = realNameStatus(viewed.realNameStatus);
  return (
    <section className="support-banner" role="status" aria-label="只读查看" data-testid="support-banner">
      <EyeOutlined className="support-banner-icon" />
      <div className="support-banner-text">
        <strong>
          正在查看：{viewed.companyName}
          <span className="support-banner-account">（{viewed.companyAccount}）</span>
        </strong>
        <span>
          只读 · 接入方式 {accountTypeLabel(viewed.accountType)} · {REAL_NAME_LABELS[rn]} ·
          已记录查看（审计日志）
        </span>
      </div>
      <div className="support-banner-actions">
        <Button size="small" icon={<SwapOutlined />} onClick={() => setOpen(true)}>
          切换公司
        </Button>
        <Button size="small" type="primary" icon={<LogoutOutlined />} onClick={leave}>
          退出查看
        </Button>
      </div>
      <CompanySwitchDialog open={open} onClose={() => setOpen(false)} />
    </section>
  );
}

/** A customer page opened by an operator with no company chosen: choose one here. */
export function SupportChooser() {
  const enter = useEnterView();
  const handle = useRouteMeta();
  return (
    <div className="page support-chooser" data-testid="support-chooser">
      <PageHeader subtitle="这是客户的页面：选择一家公司，以只读方式查看它看到的内容" />
      <Card title="选择要查看的公司">
        <p className="support-view-note">
          查看时数据与该公司看到的一致，不能代客户操作；每次查看都会记入审计日志。
          {handle?.meta.title ? `选择后打开它的「${handle.meta.title}」。` : ''}
        </p>
        <CompanyPicker onPick={enter} />
      </Card>
    </div>
  );
}
