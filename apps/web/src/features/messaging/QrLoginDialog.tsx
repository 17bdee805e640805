import { CheckCircleFilled, MobileOutlined, QrcodeOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import type { QrState, WxAccount } from '@wxc/contract/calls/messaging';
import * as messagingCalls from '@wxc/contract/calls/messaging';
import * as simCalls from '@wxc/contract/calls/sim';
import { Alert, Button, Form, Modal, Result, Select, Skeleton, Space } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, call } from '../../api/client';
import { CopyButton } from '../../components/CopyButton';
import { useFeedback } from '../../components/feedback';
import { useSite } from '../../stores/site';
import { useApiAccounts } from '../commerce/queries';
import { hasRoom, nextLoginStep, qrView, slotText } from './labels';
import { messagingKeys, useProxies } from './queries';
import { useLiveEvents } from './useLive';
import { WxAvatar } from './widgets';

type Issued = { instanceId: string; deviceId: string; qrUrl: string; qrImage: string; expiresIn: number };
interface Status {
  state: QrState;
  scanner: string | null;
  account: WxAccount | null;
  reason: string | null;
}

function NextStep({ state, go }: { state: Parameters<typeof nextLoginStep>[0]; go(path: string): void }) {
  const step = nextLoginStep(state);
  return (
    <Alert
      className="qr-alert"
      type="warning"
      showIcon
      data-testid="qr-next-step"
      title={step.title}
      description={
        <>
          <span className="qr-next-text">{step.text}</span>
          <Button size="small" type="primary" onClick={() => go(step.to)}>
            {step.action}
          </Button>
        </>
      }
    />
  );
}

/** Text for a conflict answered to the phone side: someone else's phone took the code first. */
export const SNIPED_TEXT = '二维码已被其他手机抢先扫描（秒没），请刷新二维码后重新扫码，或换一种方式登录。';

/**
 * 添加账号 / 重新登录: pick the sub-account and region, show the QR code with its link (open it on a
 * phone or in another tab: the simulator's phone page), follow its state live (SSE events plus the
 * long-poll checkQrCodeLoop), refresh an expired code on the same device, and say why a login was
 * cancelled. `deviceId` re-logs a known account in on its device.
 */
export function QrLoginDialog({
  open,
  onClose,
  onLoggedIn,
  deviceId,
  title,
  defaultSubAccountId,
}: {
  open: boolean;
  onClose(): void;
  onLoggedIn?(account: WxAccount): void;
  deviceId?: string | undefined;
  title?: string;
  defaultSubAccountId?: string | undefined;
}) {
  const { message } = useFeedback();
  const client = useQueryClient();
  const accounts = useApiAccounts(false);
  const proxies = useProxies(open);
  const navigate = useNavigate();
  const active = (accounts.data?.list ?? []).filter((a) => a.status === 'active');
  // A sub-account logs an account in only with a slot of its own to spare (the service refuses
  // otherwise): the others are listed, disabled, saying why.
  const usable = active.filter(hasRoom);
  const go = (path: string) => {
    onClose();
    navigate(path);
  };
  const [subAccountId, setSubAccountId] = useState<string | undefined>(defaultSubAccountId);
  const [proxy, setProxy] = useState<string | undefined>(undefined);
  const [issued, setIssued] = useState<Issued | null>(null);
  const [status, setStatus] = useState<Status | null>(null);
  const [issuing, setIssuing] = useState(false);
  const [issueError, setIssueError] = useState<string | null>(null);
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [phoneBusy, setPhoneBusy] = useState(false);
  const [left, setLeft] = useState(0);
  const poll = useRef<AbortController | null>(null);
  const reported = useRef<string | null>(null);

  useEffect(() => {
    if (subAccountId) return;
    const preferred = usable.find((a) => a.id === defaultSubAccountId) ?? usable[0];
    if (preferred) setSubAccountId(preferred.id);
  }, [usable, subAccountId, defaultSubAccountId]);
  const chosen = usable.find((a) => a.id === subAccountId);

  const stopPolling = useCallback(() => {
    poll.current?.abort();
    poll.current = null;
  }, []);

  const apply = useCallback(
    async (
      instanceId: string,
      r: {
        state: QrState;
        expiresIn: number;
        scanner: { nickname: string } | null;
        account: WxAccount | null;
        /** Why a cancelled attempt ended (refused for quota, …), from checkQrCode itself. */
        reason: string | null;
      },
    ) => {
      const reason = r.state === 'cancelled' ? r.reason : null;
      setStatus({ state: r.state, scanner: r.scanner?.nickname ?? null, account: r.account, reason });
      setLeft(r.expiresIn);
      if (r.state === 'confirmed' && r.account && reported.current !== instanceId) {
        reported.current = instanceId;
        void client.invalidateQueries({ queryKey: messagingKeys.all });
        onLoggedIn?.(r.account);
      }
    },
    [client, onLoggedIn],
  );

  /** Long-poll until a final state; each answer comes as soon as the state differs from the last. */
  const follow = useCallback(
    (instanceId: string) => {
      stopPolling();
      const ctrl = new AbortController();
      poll.current = ctrl;
      void (async () => {
        let last: QrState | undefined;
        while (!ctrl.signal.aborted) {
          try {
            const r = await call(
              messagingCalls.checkQrCodeLoop,
              { instanceId, waitSeconds: 25, ...(last ? { lastState: last } : {}) },
              { signal: ctrl.signal, quiet: true },
            );
            if (ctrl.signal.aborted) return;
            last = r.state;
            await apply(instanceId, r);
            if (qrView(r.state).final) return;
          } catch (err) {
            if (ctrl.signal.aborted) return;
            if (err instanceof ApiError && err.kind === 'business') {
              setIssueError(err.message);
              return;
            }
            await new Promise((r) => setTimeout(r, 2000));
          }
        }
      })();
    },
    [apply, stopPolling],
  );

  // A pushed QR event answers faster than the poll's next round trip.
  useLiveEvents((e) => {
    if (e.kind !== 'qr' || !issued || e.instanceId !== issued.instanceId) return;
    void call(messagingCalls.checkQrCode, { instanceId: e.instanceId }, { quiet: true })
      .then((r) => apply(e.instanceId, r))
      .catch(() => undefined);
  });

  const issue = async (device = deviceId) => {
    setIssuing(true);
    setIssueError(null);
    setPhoneError(null);
    setStatus(null);
    try {
      const r = await call(messagingCalls.getQrCode, {
        ...(device ? { deviceId: device } : { subAccountId }),
        ...(proxy ? { proxy } : {}),
      });
      setIssued(r);
      setLeft(r.expiresIn);
      setStatus({ state: 'waiting', scanner: null, account: null, reason: null });
      follow(r.instanceId);
    } catch (err) {
      setIssueError(err instanceof Error ? err.message : '获取二维码失败');
    } finally {
      setIssuing(false);
    }
  };

  // Countdown between answers.
  useEffect(() => {
    if (!issued || !status || qrView(status.state).final) return;
    const t = setInterval(() => setLeft((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(t);
  }, [issued, status]);

  useEffect(() => {
    if (!open) {
      stopPolling();
      setIssued(null);
      setStatus(null);
      setIssueError(null);
      setPhoneError(null);
    }
    return stopPolling;
  }, [open, stopPolling]);

  /** The phone side in this page: scan and confirm, as the phone page would. */
  const simulatePhone = async () => {
    if (!issued) return;
    setPhoneBusy(true);
    setPhoneError(null);
    try {
      // Claiming the code first: when another phone (the link opened elsewhere) already scanned it,
      // the service answers 409 and this page says the code was taken.
      await call(simCalls.scanAction, { instanceId: issued.instanceId, action: 'scan' }, { quiet: true });
      await call(simCalls.scanAction, { instanceId: issued.instanceId, action: 'confirm' }, { quiet: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === '409') setPhoneError(SNIPED_TEXT);
      else {
        const text = err instanceof Error ? err.message : '操作失败';
        setPhoneError(text);
        void message.error(text);
      }
    } finally {
      setPhoneBusy(false);
    }
  };

  // The simulator's QR code is its phone page's address; a real network's is for a real phone only.
  const simulated = useSite((s) => s.simulatedNetwork);
  const view = status
    ? qrView(status.state, { scanner: status.scanner, reason: status.reason, simulated })
    : null;
  const final = view?.final ?? false;
  const qrUrl = issued && simulated ? new URL(issued.qrUrl, location.origin).href : '';

  let content: React.ReactNode;
  if (!issued) {
    content = (
      <Form layout="vertical" className="qr-form" onFinish={() => void issue()}>
        {deviceId ? (
          <Alert
            type="info"
            showIcon
            title="在原设备上重新登录"
            description="使用该账号上次登录的云端设备，可降低风控。"
          />
        ) : (
          <Form.Item label="子账号" required help="账号登录后占用该子账号的一个额度">
            {accounts.isPending ? (
              <Skeleton.Input active block />
            ) : accounts.isError ? (
              <Alert type="error" showIcon title="子账号加载失败" description={accounts.error.message} />
            ) : (
              <>
                {active.length > 0 ? (
                  <Select
                    aria-label="子账号"
                    value={chosen?.id}
                    placeholder="没有可登录的子账号"
                    onChange={setSubAccountId}
                    options={active.map((a) => ({
                      value: a.id,
                      disabled: !hasRoom(a),
                      label: `${a.name}（${slotText(a)}）`,
                    }))}
                  />
                ) : null}
                {usable.length === 0 ? (
                  <NextStep
                    state={{
                      hasPackage: (accounts.data?.totalSlots ?? 0) > 0,
                      freeSlots: accounts.data?.freeSlots ?? 0,
                      subAccounts: active.length,
                    }}
                    go={go}
                  />
                ) : null}
              </>
            )}
          </Form.Item>
        )}
        <Form.Item label="登录地区" help="选择与账号常用地区一致的线路可降低风控">
          <Select
            aria-label="登录地区"
            allowClear
            placeholder="自动"
            loading={proxies.isPending}
            value={proxy}
            onChange={setProxy}
            options={(proxies.data?.list ?? []).map((p) => ({
              value: p.code,
              label: `${p.name}（${p.region}）`,
            }))}
          />
        </Form.Item>
        {issueError ? <Alert type="error" showIcon title={issueError} className="qr-alert" /> : null}
        <Button
          type="primary"
          htmlType="submit"
          icon={<QrcodeOutlined />}
          loading={issuing}
          block
          disabled={!deviceId && !chosen}
        >
          获取二维码
        </Button>
      </Form>
    );
  } else if (status?.state === 'confirmed' && status.account) {
    content = (
      <Result
        status="success"
        icon={<CheckCircleFilled />}
        title="登录成功"
        subTitle={
          <span className="qr-account">
            <WxAvatar src={status.account.avatar} name={status.account.nickname} />
            <strong data-testid="qr-nickname">{status.account.nickname}</strong>
            <code>{status.account.wxid}</code>
          </span>
        }
        extra={
          <Button type="primary" onClick={onClose}>
            完成
          </Button>
        }
      />
    );
  } else {
    content = (
      <div className="qr-box" data-testid="qr-box" data-state={status?.state ?? ''}>
        <div className={final ? 'qr-image qr-image-dim' : 'qr-image'}>
          <img src={issued.qrImage} alt="登录二维码" width={200} height={200} />
          {final ? (
            <Button
              type="primary"
              icon={<ReloadOutlined />}
              loading={issuing}
              onClick={() => void issue(issued.deviceId)}
            >
              刷新二维码
            </Button>
          ) : null}
        </div>
        {view ? (
          <Alert
            type={view.tone}
            showIcon
            title={<span data-testid="qr-state">{view.title}</span>}
            description={
              <>
                {view.text}
                {!final && left > 0 ? <span className="qr-left">（{left} 秒后过期）</span> : null}
              </>
            }
          />
        ) : null}
        {phoneError ? (
          <Alert type="warning" showIcon title={phoneError} data-testid="qr-phone-error" />
        ) : null}
        {status?.state === 'cancelled' && status.reason && /额度|套餐/.test(status.reason) ? (
          <Button
            type="link"
            onClick={() =>
              go(/套餐/.test(status.reason ?? '') ? '/purchaseRecords/index' : '/accountList/index')
            }
          >
            {/套餐/.test(status.reason) ? '去购买或续费套餐' : '去「子账号」分配额度'}
          </Button>
        ) : null}
        {issueError ? <Alert type="error" showIcon title={issueError} /> : null}
        {!final && simulated ? (
          <div className="qr-link">
            <span className="muted">扫码链接（模拟器手机页）：</span>
            <a href={qrUrl} target="_blank" rel="noreferrer" data-testid="qr-link">
              {qrUrl}
            </a>
            <Space wrap>
              <CopyButton text={qrUrl} what="扫码链接" />
              <Button
                size="small"
                icon={<MobileOutlined />}
                loading={phoneBusy}
                disabled={status?.state !== 'waiting' && status?.state !== 'scanned'}
                onClick={() => void simulatePhone()}
              >
                本页模拟手机确认
              </Button>
            </Space>
          </div>
        ) : null}
      </div>
    );
  }

  return (
    <Modal
      open={open}
      title={title ?? (deviceId ? '重新登录' : '添加微信账号')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={440}
      mask={{ closable: false }}
    >
      {content}
    </Modal>
  );
}
