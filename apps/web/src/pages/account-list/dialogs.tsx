import { useMutation } from '@tanstack/react-query';
import type { ApiAccount } from '@wxc/contract/calls/api-accounts';
import * as apiAccountCalls from '@wxc/contract/calls/api-accounts';
import { httpUrlField } from '@wxc/contract/fields';
import { Alert, Button, Drawer, Form, Input, InputNumber, Skeleton } from 'antd';
import { call } from '../../api/client';
import { useFeedback } from '../../components/feedback';
import { ModalForm } from '../../components/ModalForm';
import { callbackAddressNote, maxAllocatable, parseIpList } from '../../features/commerce/logic';
import { useCompanyConfig, useInvalidateCommerce } from '../../features/commerce/queries';
import type { Credentials } from '../../features/commerce/SecretOnceDialog';
import { useSite } from '../../stores/site';
import { useReadOnly } from '../../stores/support-view';
import { zodRule } from '../../utils/form-rules';

const nameRule = zodRule(apiAccountCalls.openApiAccount.request.shape.name);
/** Empty means "none"; anything typed must be a full http(s) URL (the server also checks SSRF). */
const optionalUrlRule = {
  validator: (_rule: unknown, value: unknown) => {
    if (typeof value !== 'string' || value.trim() === '') return Promise.resolve();
    const result = httpUrlField.safeParse(value);
    return result.success
      ? Promise.resolve()
      : Promise.reject(new Error(result.error.issues[0]?.message ?? '地址无效'));
  },
};
const emptyToNull = (v: string | undefined) => (v?.trim() ? v.trim() : null);

interface OpenValues {
  name: string;
  availableNum: number;
  callbackUrl?: string;
}

/** What an allocation is, and where this company stands, in one line under the field. */
export function allocationHelp(freeSlots: number, totalSlots: number): string {
  const what = '额度 = 这个子账号最多可同时登录的微信账号数';
  if (totalSlots <= 0) return `${what}。还没有有效套餐，购买后才有额度可分配。`;
  if (freeSlots <= 0)
    return `${what}。套餐的 ${totalSlots} 个额度已全部分配给其他子账号：可先在列表中调低它们的额度，或购买更多套餐；额度为 0 的子账号不能登录微信账号。`;
  return `${what}。套餐共 ${totalSlots} 个，可分配 ${freeSlots} 个（默认全部），以后可随时调整。`;
}

/** 新建子账号: name, slots (the free ones by default), optional callback URL; answers the secret once. */
export function OpenDialog({
  freeSlots,
  totalSlots,
  onClose,
  onCreated,
}: {
  freeSlots: number;
  totalSlots: number;
  onClose(): void;
  onCreated(credentials: Credentials): void;
}) {
  const privateAllowed = useSite((s) => s.callbackPrivateAllowed);
  const invalidate = useInvalidateCommerce();
  const open = useMutation({
    mutationFn: (v: OpenValues) =>
      call(apiAccountCalls.openApiAccount, {
        name: v.name.trim(),
        availableNum: v.availableNum ?? 0,
        ...(v.callbackUrl?.trim() ? { callbackUrl: v.callbackUrl.trim() } : {}),
      }),
    onSuccess: (credentials) => {
      void invalidate();
      onCreated(credentials);
    },
  });
  return (
    <ModalForm<OpenValues>
      title="新建子账号"
      okText="创建"
      initialValues={{ availableNum: Math.max(0, freeSlots) }}
      pending={open.isPending}
      onSubmit={(v) => open.mutate(v)}
      onClose={onClose}
    >
      <Form.Item name="name" label="子账号名称" rules={[nameRule]} extra="例如业务线或应用名称，便于区分">
        <Input autoFocus maxLength={30} showCount placeholder="如：客服系统" />
      </Form.Item>
      <Form.Item
        name="availableNum"
        label="分配账号额度"
        extra={<span data-testid="allocation-help">{allocationHelp(freeSlots, totalSlots)}</span>}
        rules={[{ type: 'number', min: 0, max: freeSlots, message: `最多可分配 ${freeSlots} 个` }]}
      >
        <InputNumber aria-label="分配账号额度" min={0} max={freeSlots} precision={0} suffix="个" />
      </Form.Item>
      <Form.Item
        name="callbackUrl"
        label="回调地址（可选）"
        rules={[optionalUrlRule]}
        extra={`接收消息和事件推送；不填则使用公司默认回调地址。${callbackAddressNote(privateAllowed)}`}
      >
        <Input placeholder="https://example.com/wechat/callback" maxLength={500} />
      </Form.Item>
    </ModalForm>
  );
}

/** 分配额度: between what is logged in now and what the company has free plus this one's own. */
export function SlotsDialog({
  account,
  freeSlots,
  onClose,
}: {
  account: ApiAccount;
  freeSlots: number;
  onClose(): void;
}) {
  const { message } = useFeedback();
  const invalidate = useInvalidateCommerce();
  const max = maxAllocatable(freeSlots, account.availableNum);
  const min = account.usedNum;
  const save = useMutation({
    mutationFn: (availableNum: number) =>
      call(apiAccountCalls.updateAvailableNum, { id: account.id, availableNum }),
    onSuccess: (updated) => {
      void message.success(`已将「${updated.name}」的额度调整为 ${updated.availableNum} 个`);
      void invalidate();
      onClose();
    },
    // A refusal (e.g. another change took the free slots meanwhile) was toasted; show the new limits.
    onError: () => void invalidate(),
  });
  return (
    <ModalForm<{ availableNum: number }>
      title={`分配额度：${account.name}`}
      initialValues={{ availableNum: account.availableNum }}
      pending={save.isPending}
      onSubmit={(v) => save.mutate(v.availableNum)}
      onClose={onClose}
    >
      <Form.Item
        name="availableNum"
        label="分配账号额度"
        rules={[{ required: true, message: '请输入分配数量' }]}
        extra={`最多 ${max} 个（当前 ${account.availableNum} 个 + 未分配 ${freeSlots} 个）${
          min > 0 ? `，当前在线 ${min} 个，不能少于 ${min} 个` : ''
        }`}
      >
        <InputNumber aria-label="分配账号额度" autoFocus min={min} max={max} precision={0} suffix="个" />
      </Form.Item>
    </ModalForm>
  );
}

/** 编辑: name and callback URL (empty clears it). */
export function EditDialog({ account, onClose }: { account: ApiAccount; onClose(): void }) {
  const { message } = useFeedback();
  const privateAllowed = useSite((s) => s.callbackPrivateAllowed);
  const invalidate = useInvalidateCommerce();
  const save = useMutation({
    mutationFn: (v: { name: string; callbackUrl?: string }) =>
      call(apiAccountCalls.updateApiAccount, {
        id: account.id,
        name: v.name.trim(),
        callbackUrl: emptyToNull(v.callbackUrl),
      }),
    onSuccess: () => {
      void message.success('子账号已更新');
      void invalidate();
      onClose();
    },
  });
  return (
    <ModalForm<{ name: string; callbackUrl?: string }>
      title="编辑子账号"
      initialValues={{ name: account.name, callbackUrl: account.callbackUrl ?? '' }}
      pending={save.isPending}
      onSubmit={(v) => save.mutate(v)}
      onClose={onClose}
    >
      <Form.Item name="name" label="子账号名称" rules={[nameRule]}>
        <Input maxLength={30} showCount />
      </Form.Item>
      <Form.Item
        name="callbackUrl"
        label="回调地址"
        rules={[optionalUrlRule]}
        extra={`留空则使用公司默认回调地址；${callbackAddressNote(privateAllowed)}`}
      >
        <Input placeholder="https://example.com/wechat/callback" maxLength={500} allowClear />
      </Form.Item>
    </ModalForm>
  );
}

const ipListSchema = apiAccountCalls.configCompanyInfo.request.shape.ipAllowlist;
const ipListRule = {
  validator: (_rule: unknown, value: unknown) => {
    const result = ipListSchema.safeParse(parseIpList(typeof value === 'string' ? value : ''));
    return result.success
      ? Promise.resolve()
      : Promise.reject(new Error(result.error.issues[0]?.message ?? 'IP 白名单有误'));
  },
};

/** 公司 API 设置: default callback URL and the IP allow-list for API credentials. */
export function CompanySettingsDrawer({ open, onClose }: { open: boolean; onClose(): void }) {
  const { message } = useFeedback();
  const readOnly = useReadOnly();
  const privateAllowed = useSite((s) => s.callbackPrivateAllowed);
  const [form] = Form.useForm<{ defaultCallbackUrl?: string; ipAllowlist?: string }>();
  const config = useCompanyConfig(open);
  const invalidate = useInvalidateCommerce();
  const save = useMutation({
    mutationFn: (v: { defaultCallbackUrl?: string; ipAllowlist?: string }) =>
      call(apiAccountCalls.configCompanyInfo, {
        defaultCallbackUrl: emptyToNull(v.defaultCallbackUrl),
        ipAllowlist: parseIpList(v.ipAllowlist ?? ''),
      }),
    onSuccess: () => {
      void message.success('API 设置已保存');
      void invalidate();
      onClose();
    },
  });
  return (
    <Drawer
      open={open}
      title={readOnly ? '公司 API 设置（只读）' : '公司 API 设置'}
      onClose={onClose}
      size={Math.min(480, typeof window === 'undefined' ? 480 : window.innerWidth)}
      destroyOnHidden
      footer={
        readOnly ? null : (
          <div className="drawer-footer">
            <Button onClick={onClose}>取消</Button>
            <Button
              type="primary"
              loading={save.isPending}
              onClick={() => form.submit()}
              disabled={!config.data}
            >
              保存
            </Button>
          </div>
        )
      }
    >
      {config.isPending ? (
        <Skeleton active />
      ) : config.isError ? (
        <Alert type="error" showIcon title="加载失败" description={config.error.message} />
      ) : (
        <Form
          form={form}
          layout="vertical"
          disabled={readOnly}
          initialValues={{
            defaultCallbackUrl: config.data.defaultCallbackUrl ?? '',
            ipAllowlist: config.data.ipAllowlist.join('\n'),
          }}
          onFinish={(v) => save.mutate(v)}
        >
          <Form.Item
            name="defaultCallbackUrl"
            label="默认回调地址"
            rules={[optionalUrlRule]}
            extra={`子账号未设置回调地址时，消息和事件推送到这里；${callbackAddressNote(privateAllowed)}`}
          >
            <Input placeholder="https://example.com/wechat/callback" maxLength={500} allowClear />
          </Form.Item>
          <Form.Item
            name="ipAllowlist"
            label="IP 白名单"
            rules={[ipListRule]}
            extra="使用 AppKey/AppSecret 调用时允许的来源 IP，每行一个 IPv4 地址或 CIDR；留空表示不限制"
          >
            <Input.TextArea rows={6} placeholder={'203.0.113.5\n203.0.113.0/24'} />
          </Form.Item>
        </Form>
      )}
    </Drawer>
  );
}
