import { DeleteOutlined, QrcodeOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as systemCalls from '@wxc/contract/calls/system';
import { Button, Card, Input, Popconfirm, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { call } from '../../api/client';
import { uploadSupportQr } from '../../api/upload';
import { useFeedback } from '../../components/feedback';
import { QueryState } from '../../components/QueryState';
import { useSite } from '../../stores/site';
import { opsKeys } from './queries';
import { supportQrProblem } from './support-qr';

type Contact = { supportQrUrl: string | null; supportText: string };

/** An uploaded QR (served at /support-qr/…), as opposed to the configured default image. */
const isUploaded = (url: string | null) => Boolean(url?.startsWith('/support-qr/'));

/**
 * 客服联系方式: the QR image and text customers see under 联系客服 in the top bar. Stored by the
 * service (SUPPORT_QR_URL / SUPPORT_TEXT stay the defaults); saved values show at once here and in
 * every console that loads afterwards.
 */
export function SupportContact() {
  const { message } = useFeedback();
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const query = useQuery({
    queryKey: [...opsKeys.all, 'support'],
    queryFn: ({ signal }) => call(systemCalls.siteInfo, {}, { signal }),
  });
  const [text, setText] = useState('');
  const current = query.data?.supportText;
  useEffect(() => {
    if (current !== undefined) setText(current);
  }, [current]);

  const saved = (c: Contact, note: string) => {
    client.setQueryData([...opsKeys.all, 'support'], (old: typeof query.data) =>
      old ? { ...old, ...c } : old,
    );
    useSite.setState(c);
    void message.success(note);
  };
  const upload = useMutation({
    mutationFn: (file: File) => uploadSupportQr(file),
    onSuccess: (c) => saved(c, '客服二维码已更新'),
  });
  const save = useMutation({
    mutationFn: (v: { supportText: string | null; removeQr?: boolean }) =>
      call(systemCalls.adminSaveSupport, v),
    onSuccess: (c, v) => saved(c, v.removeQr ? '已移除上传的二维码' : '客服说明已保存'),
  });
  const pick = (file: File | undefined) => {
    if (!file) return;
    const problem = supportQrProblem(file);
    if (problem) void message.warning(problem);
    else upload.mutate(file);
  };

  return (
    <Card size="small" title="客服联系方式" data-testid="support-contact">
      <QueryState query={query} rows={3}>
        {(info) => (
          <div className="ops-support">
            <div className="ops-support-qr">
              {info.supportQrUrl ? (
                <img
                  src={info.supportQrUrl}
                  alt="客服二维码"
                  width={140}
                  height={140}
                  data-testid="support-qr-preview"
                />
              ) : (
                <div className="support-qr-placeholder" role="img" aria-label="暂未配置客服二维码">
                  <QrcodeOutlined />
                  <span>暂未配置二维码</span>
                </div>
              )}
              <input
                ref={input}
                type="file"
                hidden
                accept="image/png,image/jpeg"
                aria-label="选择客服二维码图片"
                data-testid="support-qr-input"
                onChange={(e) => {
                  pick(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
              <Space wrap>
                <Button
                  icon={<UploadOutlined />}
                  loading={upload.isPending}
                  onClick={() => input.current?.click()}
                >
                  {info.supportQrUrl ? '更换二维码' : '上传二维码'}
                </Button>
                {isUploaded(info.supportQrUrl) ? (
                  <Popconfirm
                    title="移除上传的客服二维码？"
                    description="移除后显示配置的默认图片（未配置则不显示二维码）。"
                    okText="移除"
                    cancelText="取消"
                    onConfirm={() => save.mutate({ supportText: info.supportText, removeQr: true })}
                  >
                    <Button icon={<DeleteOutlined />} danger>
                      移除
                    </Button>
                  </Popconfirm>
                ) : null}
              </Space>
              <span className="ops-muted">PNG 或 JPG，不超过 2 MB</span>
            </div>
            <div className="ops-support-text">
              <label htmlFor="support-text" className="ops-support-label">
                客服说明（显示在二维码下方）
              </label>
              <Input.TextArea
                id="support-text"
                aria-label="客服说明"
                rows={3}
                maxLength={100}
                showCount
                value={text}
                onChange={(e) => setText(e.target.value)}
              />
              <Space wrap>
                <Button
                  type="primary"
                  loading={save.isPending}
                  disabled={text.trim() === '' || text === info.supportText}
                  onClick={() => save.mutate({ supportText: text.trim() })}
                >
                  保存说明
                </Button>
                <Button disabled={save.isPending} onClick={() => save.mutate({ supportText: null })}>
                  恢复默认说明
                </Button>
              </Space>
              <span className="ops-muted">客户点击顶栏「联系客服」时看到这里的二维码和说明。</span>
            </div>
          </div>
        )}
      </QueryState>
    </Card>
  );
}
