import { BulbOutlined, ClearOutlined, SendOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { defineCall } from '@wxc/contract/call';
import type { ApiParam } from '@wxc/contract/calls/catalogue';
import * as catalogueCalls from '@wxc/contract/calls/catalogue';
import { Alert, Button, Card, Empty, Form, Input, Select, Skeleton, Switch, Tag, Tooltip } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { z } from 'zod';
import { ApiError, call } from '../../api/client';
import { CopyButton } from '../../components/CopyButton';
import { QueryState } from '../../components/QueryState';
import { useApiAccounts, useService } from '../../features/commerce/queries';
import {
  buildBody,
  curlFor,
  type FieldModel,
  type FormValues,
  fieldsFromParams,
  initialValues,
  prettyJson,
} from '../../features/messaging/form';
import { messagingKeys, useOnlineAccounts } from '../../features/messaging/queries';
import { useLiveEvents } from '../../features/messaging/useLive';
import { useReadOnly } from '../../stores/support-view';
import { CallbackCard, UploadBox } from './tools';
import '../../features/commerce/commerce.css';
import '../../features/messaging/messaging.css';
import './online-test.css';
import { PageHeader } from '../../components/PageHeader';

type Entry = z.infer<typeof catalogueCalls.apiCatalogueEntry>;
const UPLOAD_PATH = '/api/tools/getSourceUrl';

/**
 * The one place the console calls a path taken from data: a call of the catalogue (generated from
 * the contract, so only `customerOrApi` calls), sent with the console session through the
 * generic client. Quiet: the result panel shows failures.
 */
function callCatalogued(entry: Entry, body: Record<string, unknown>) {
  const def = defineCall({
    id: entry.id,
    method: entry.method === 'GET' ? 'GET' : 'POST',
    path: entry.path,
    audience: 'customerOrApi',
    tag: entry.group,
    summary: entry.name,
    request: z.record(z.string(), z.unknown()),
    response: z.unknown(),
  });
  return call(def, body, { quiet: true });
}

interface Outcome {
  ok: boolean;
  code: string;
  ms: number;
  payload: unknown;
}

function FieldInput({
  field,
  value,
  onChange,
  wxids,
  subs,
}: {
  field: FieldModel;
  value: FormValues[string];
  onChange(v: FormValues[string]): void;
  wxids: Array<{ value: string; label: string }>;
  subs: Array<{ value: string; label: string }>;
}) {
  const text = typeof value === 'string' ? value : '';
  switch (field.widget) {
    case 'wxid':
      return (
        <Select
          aria-label={field.name}
          showSearch
          allowClear
          placeholder={wxids.length ? '选择在线账号' : '没有在线账号，可在「微信管理」添加'}
          value={text || undefined}
          onChange={(v?: string) => onChange(v ?? '')}
          options={wxids}
        />
      );
    case 'subAccount':
      return (
        <Select
          aria-label={field.name}
          allowClear
          placeholder="默认第一个子账号"
          value={text || undefined}
          onChange={(v?: string) => onChange(v ?? '')}
          options={subs}
        />
      );
    case 'enum':
      return (
        <Select
          aria-label={field.name}
          allowClear
          value={text || undefined}
          onChange={(v?: string | number) => onChange(v === undefined ? '' : String(v))}
          options={(field.options ?? []).map((o) => ({ value: String(o), label: String(o) }))}
        />
      );
    case 'boolean':
      return <Switch aria-label={field.name} checked={value === true} onChange={(v) => onChange(v)} />;
    case 'array':
    case 'json':
      return (
        <Input.TextArea
          aria-label={field.name}
          autoSize={{ minRows: 2, maxRows: 6 }}
          placeholder={field.widget === 'array' ? '每行一项，或 JSON 数组' : 'JSON'}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    default:
      return (
        <Input
          aria-label={field.name}
          inputMode={field.widget === 'integer' || field.widget === 'number' ? 'numeric' : undefined}
          placeholder={
            field.example === undefined || field.example === '' ? '' : `例如 ${String(field.example)}`
          }
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
}

function Tester({ entry }: { entry: Entry }) {
  const readOnly = useReadOnly();
  const params = useQuery({
    queryKey: messagingKeys.params(entry.path),
    queryFn: ({ signal }) =>
      call(catalogueCalls.wechatApiParamList, { path: entry.path }, { signal, quiet: true }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const online = useOnlineAccounts();
  const subsQuery = useApiAccounts(false);
  const service = useService();
  const wxids = (online.data?.list ?? []).map((a) => ({
    value: a.wxid,
    label: `${a.nickname}（${a.wxid}）`,
  }));
  const subs = (subsQuery.data?.list ?? [])
    .filter((s) => s.status === 'active')
    .map((s) => ({ value: s.id, label: s.name }));
  const fields = useMemo(() => fieldsFromParams((params.data?.list ?? []) as ApiParam[]), [params.data]);
  const context = { wxid: online.data?.list[0]?.wxid, subAccountId: undefined };
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the call or its fields change.
  useEffect(() => {
    setValues(initialValues(fields, context));
    setErrors({});
    setOutcome(null);
  }, [fields]);
  // The first online account arrives after the fields: put it in an empty wxid.
  useEffect(() => {
    const first = online.data?.list[0]?.wxid;
    if (!first) return;
    setValues((v) =>
      fields.some((f) => f.widget === 'wxid' && !v[f.name]) ? { ...v, wxid: v.wxid || first } : v,
    );
  }, [online.data, fields]);

  const built = buildBody(fields, values);
  const base = service.data?.api || location.origin;
  const curl = curlFor(base, entry.path, built.body);

  const send = async () => {
    const { body, errors: errs } = buildBody(fields, values);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setSending(true);
    const started = performance.now();
    try {
      const data = await callCatalogued(entry, body);
      setOutcome({
        ok: true,
        code: '200',
        ms: Math.round(performance.now() - started),
        payload: { code: '200', data },
      });
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(String(err), 'network');
      setOutcome({
        ok: false,
        code: e.code || e.kind,
        ms: Math.round(performance.now() - started),
        payload: { code: e.code || null, message: e.message },
      });
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="tester">
      <div className="tester-head">
        <Tag color="blue">{entry.method}</Tag>
        <code className="tester-path">{entry.path}</code>
        <CopyButton text={entry.path} what="接口地址" label={null} />
      </div>
      {entry.description ? <p className="muted tester-desc">{entry.description}</p> : null}
      {entry.path === UPLOAD_PATH ? (
        readOnly ? (
          <p className="muted">只读查看：不能代客户上传文件。</p>
        ) : (
          <UploadBox />
        )
      ) : (
        <QueryState query={params} rows={4}>
          {() => (
            <>
              {fields.length === 0 ? <p className="muted">该接口没有参数。</p> : null}
              <Form layout="vertical" className="param-form" onFinish={() => void send()}>
                {fields.map((f) => (
                  <Form.Item
                    key={f.name}
                    label={
                      <span>
                        <code>{f.name}</code> <span className="muted">{f.type}</span>
                      </span>
                    }
                    required={f.required}
                    validateStatus={errors[f.name] ? 'error' : undefined}
                    help={errors[f.name] ?? f.description}
                  >
                    <FieldInput
                      field={f}
                      value={values[f.name]}
                      onChange={(v) => setValues((s) => ({ ...s, [f.name]: v }))}
                      wxids={wxids}
                      subs={subs}
                    />
                  </Form.Item>
                ))}
                {readOnly ? (
                  <Alert
                    type="info"
                    showIcon
                    title="只读查看：不能代客户调用接口"
                    description="可以查看接口、参数和请求示例；调用请由客户在自己的控制台或程序中进行。"
                  />
                ) : (
                  <div className="tester-actions">
                    <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={sending}>
                      发送请求
                    </Button>
                    <Tooltip title="用接口示例填写所有参数">
                      <Button
                        icon={<BulbOutlined />}
                        onClick={() =>
                          setValues(
                            initialValues(
                              fields,
                              { ...context, wxid: values.wxid as string | undefined },
                              true,
                            ),
                          )
                        }
                      >
                        填入示例
                      </Button>
                    </Tooltip>
                    <Button
                      icon={<ClearOutlined />}
                      onClick={() => setValues(initialValues(fields, context))}
                    >
                      重置
                    </Button>
                  </div>
                )}
              </Form>
              <div className="tester-panels">
                <section aria-label="请求">
                  <h3 className="section-title">
                    请求
                    <CopyButton text={curl} what="curl 命令" label="复制 curl" />
                  </h3>
                  <pre className="json-block" data-testid="request-json">
                    {`${entry.method} ${entry.path}\n${prettyJson(built.body)}`}
                  </pre>
                  <p className="muted small">
                    控制台以当前登录会话调用；您的程序请使用子账号的 x-app-key / x-app-secret，见 curl 命令。
                  </p>
                </section>
                <section aria-label="响应">
                  <h3 className="section-title">
                    响应
                    {outcome ? (
                      <span className="tester-meta" data-testid="response-meta">
                        <Tag color={outcome.ok ? 'success' : 'error'}>code {outcome.code}</Tag>
                        <span className="muted">{outcome.ms} ms</span>
                      </span>
                    ) : null}
                  </h3>
                  {outcome ? (
                    <pre className="json-block" data-testid="response-json">
                      {prettyJson(outcome.payload)}
                    </pre>
                  ) : (
                    <div className="tester-empty muted">点击「发送请求」后在这里显示响应</div>
                  )}
                </section>
              </div>
            </>
          )}
        </QueryState>
      )}
    </div>
  );
}

/**
 * Brings the element `#id` into view when the address ends with that hash, and keeps it there while
 * the content above it is still loading (the page grows), until the user scrolls or 3 s pass.
 */
function useScrollToHash(id: string) {
  const { hash } = useLocation();
  useEffect(() => {
    if (hash !== `#${id}`) return;
    let moved = false;
    const stop = () => {
      moved = true;
    };
    const scroll = () => {
      if (!moved) document.getElementById(id)?.scrollIntoView({ block: 'start' });
    };
    scroll();
    const observer = new ResizeObserver(scroll);
    const main = document.querySelector('.app-main');
    if (main) observer.observe(main);
    const timer = setTimeout(() => observer.disconnect(), 3000);
    const events = ['wheel', 'touchstart', 'keydown'] as const;
    for (const e of events) window.addEventListener(e, stop, { passive: true });
    return () => {
      clearTimeout(timer);
      observer.disconnect();
      for (const e of events) window.removeEventListener(e, stop);
    };
  }, [hash, id]);
}

/** /onlineTest/index (在线测试): every customer-facing call, a form from its parameters, the result. */
export default function OnlineTestPage() {
  useLiveEvents();
  const readOnly = useReadOnly();
  // `#callbacks` (the 开始使用 checklist, 模拟演示's delivery log) scrolls to 回调设置.
  useScrollToHash('callbacks');
  const catalogue = useQuery({
    queryKey: messagingKeys.catalogue(),
    queryFn: ({ signal }) => call(catalogueCalls.wechatApiList, {}, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [path, setPath] = useState<string>('/api/msg/sendMsgText');
  const list = catalogue.data?.list ?? [];
  const entry = list.find((e) => e.path === path);
  const groups = useMemo(() => {
    const map = new Map<string, Entry[]>();
    for (const e of list) map.set(e.group, [...(map.get(e.group) ?? []), e]);
    return [...map.entries()].map(([group, items]) => ({
      label: group,
      title: group,
      options: items.map((e) => ({ value: e.path, label: `${e.name}  ${e.path.replace(/^\/api\//, '')}` })),
    }));
  }, [list]);

  return (
    <div className="page commerce-page online-test-page">
      <PageHeader subtitle="选择接口、填写参数，直接调用并查看结果" />
      <Card title="接口调试">
        {catalogue.isPending ? (
          <Skeleton active />
        ) : catalogue.isError ? (
          <Alert type="error" showIcon title="接口目录加载失败" description={catalogue.error.message} />
        ) : list.length === 0 ? (
          <Empty description="没有可测试的接口" />
        ) : (
          <>
            <div className="picker">
              <label htmlFor="api-picker" className="picker-label">
                接口
              </label>
              <Select
                id="api-picker"
                aria-label="选择接口"
                showSearch={{
                  filterOption: (input, option) =>
                    String(option?.label ?? '')
                      .toLowerCase()
                      .includes(input.trim().toLowerCase()),
                }}
                className="picker-select"
                value={path}
                onChange={setPath}
                options={groups}
                listHeight={360}
              />
            </div>
            {entry ? <Tester key={entry.path} entry={entry} /> : null}
          </>
        )}
      </Card>
      <div className="tools-grid">
        <Card title="上传文件获取媒体地址" className="tool-card">
          {readOnly ? <p className="muted">只读查看：不能代客户上传文件。</p> : <UploadBox />}
        </Card>
        <CallbackCard />
      </div>
    </div>
  );
}
