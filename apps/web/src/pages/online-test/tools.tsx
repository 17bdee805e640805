import { ApiOutlined, SendOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import * as callbackCalls from '@wxc/contract/calls/callbacks';
import { MEDIA_MAX_BYTES } from '@wxc/contract/constants';
import { Alert, Button, Card, Input, Select, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { uploadSource } from '../../api/upload';
import { CopyableCode } from '../../components/CopyButton';
import { useFeedback } from '../../components/feedback';
import { callbackAddressNote } from '../../features/commerce/logic';
import { useApiAccounts, useInvalidateCommerce } from '../../features/commerce/queries';
import { DeliveryLog } from '../../features/messaging/DeliveryLog';
import { formatBytes } from '../../features/messaging/labels';
import { messagingKeys } from '../../features/messaging/queries';
import { useSite } from '../../stores/site';
import { useReadOnly } from '../../stores/support-view';

/** A file picker that uploads with getSourceUrl and shows the media URL to use in send calls. */
export function UploadBox({ onUploaded }: { onUploaded?(url: string, fileName: string): void }) {
  const { message } = useFeedback();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ url: string; fileName: string; size: number; mime: string } | null>(
    null,
  );
  const pick = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MEDIA_MAX_BYTES) {
      void message.warning(`文件不能超过 ${MEDIA_MAX_BYTES / 1024 / 1024} MB`);
      return;
    }
    setBusy(true);
    try {
      const r = await uploadSource(file);
      setResult(r);
      onUploaded?.(r.url, r.fileName);
      void message.success('上传成功，地址可用于发送接口');
    } catch {
      // the request layer has said why
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className="upload-box">
      <input
        ref={input}
        type="file"
        hidden
        aria-label="选择要上传的文件"
        data-testid="upload-input"
        onChange={(e) => void pick(e.target.files?.[0])}
      />
      <Button icon={<UploadOutlined />} loading={busy} onClick={() => input.current?.click()}>
        选择文件上传
      </Button>
      <span className="muted">图片、视频、语音、文件均可，最大 {MEDIA_MAX_BYTES / 1024 / 1024} MB</span>
      {result ? (
        <div className="upload-result" data-testid="upload-result">
          <span>
            {result.fileName} · {result.mime} · {formatBytes(result.size)}
          </span>
          <CopyableCode text={result.url} what="媒体地址" />
        </div>
      ) : null}
    </div>
  );
}

/** 回调设置: set a sub-account's callback URL (tested on save), send a test event, see deliveries. */
export function CallbackCard() {
  const { message } = useFeedback();
  const client = useQueryClient();
  const invalidateCommerce = useInvalidateCommerce();
  const subs = useApiAccounts(false);
  const active = (subs.data?.list ?? []).filter((s) => s.status === 'active');
  const [subId, setSubId] = useState<string | undefined>();
  const sub = active.find((s) => s.id === subId);
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState<'save' | 'test' | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const readOnly = useReadOnly();
  const privateAllowed = useSite((x) => x.callbackPrivateAllowed);
  const navigate = useNavigate();

  useEffect(() => {
    if (!subId && active[0]) setSubId(active[0].id);
  }, [active, subId]);
  // Another sub-account: its own address, and no outcome of the previous one. A refetch of the list
  // (after a save, say) keeps what was said about the save.
  useEffect(() => {
    if (subId) setOutcome(null);
  }, [subId]);
  const savedUrl = sub?.callbackUrl ?? '';
  useEffect(() => {
    setUrl(savedUrl);
  }, [savedUrl]);

  const save = async () => {
    if (!subId) return;
    setBusy('save');
    setOutcome(null);
    try {
      const r = await call(callbackCalls.resetCallbackUrl, { subAccountId: subId, callbackUrl: url.trim() });
      setOutcome(`已保存：测试投递返回 HTTP ${r.test.statusCode}，用时 ${r.test.durationMs} ms`);
      void message.success('回调地址已保存');
      void invalidateCommerce();
      void client.invalidateQueries({ queryKey: messagingKeys.deliveries() });
    } catch {
      // the request layer has said why (unreachable, private address, ...)
    } finally {
      setBusy(null);
    }
  };
  const test = async () => {
    if (!subId) return;
    setBusy('test');
    try {
      await call(callbackCalls.sendTestEvent, { subAccountId: subId });
      void message.success('测试事件已进入投递队列');
      void client.invalidateQueries({ queryKey: messagingKeys.deliveries() });
    } catch {
      // shown
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card title="回调设置" className="tool-card" id="callbacks">
      {active.length === 0 && !subs.isPending ? (
        <Alert
          type="info"
          showIcon
          title="还没有子账号"
          description="回调地址属于子账号：先新建一个子账号，再回到这里设置。"
          action={
            readOnly ? null : (
              <Button size="small" type="primary" onClick={() => navigate('/accountList/index?open=1')}>
                新建子账号
              </Button>
            )
          }
        />
      ) : (
        <div className="callback-form">
          <Select
            aria-label="回调子账号"
            value={subId}
            onChange={setSubId}
            loading={subs.isPending}
            style={{ minWidth: 160 }}
            options={active.map((s) => ({ value: s.id, label: s.name }))}
          />
          <Input
            aria-label="回调地址"
            placeholder={readOnly ? '未设置' : 'https://your-server.example.com/wx/callback'}
            value={url}
            readOnly={readOnly}
            onChange={(e) => setUrl(e.target.value)}
            className="callback-url"
          />
          {readOnly ? null : (
            <Space wrap>
              <Button
                type="primary"
                icon={<ApiOutlined />}
                loading={busy === 'save'}
                disabled={!url.trim()}
                onClick={() => void save()}
              >
                保存并测试
              </Button>
              <Button
                icon={<SendOutlined />}
                loading={busy === 'test'}
                disabled={!sub?.callbackUrl}
                onClick={() => void test()}
              >
                发送测试事件
              </Button>
            </Space>
          )}
        </div>
      )}
      <p className="muted small" data-testid="callback-help">
        保存前会先投递一次 test 事件，5 秒内返回 2xx 才会保存；{callbackAddressNote(privateAllowed)}
        。回调带签名头 x-wx-signature 与 x-wx-timestamp，失败后按指数退避重试。
      </p>
      {outcome ? <Alert type="success" showIcon title={outcome} /> : null}
      <h3 className="section-title">投递记录</h3>
      <DeliveryLog
        subAccountId={subId}
        emptyHint={
          readOnly
            ? '还没有回调事件'
            : sub?.callbackUrl
              ? '还没有回调事件：点「发送测试事件」，或在「模拟演示」里收发一条消息，投递就会记录在这里'
              : '还没有回调事件：在上方填写回调地址并「保存并测试」，之后消息、上下线等事件会推送到该地址并记录在这里'
        }
      />
    </Card>
  );
}
