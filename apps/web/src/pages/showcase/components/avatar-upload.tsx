import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import * as calls from '@wxc/contract/calls/showcase';
import { Avatar, Button, Modal, Progress, Slider, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { ApiError } from '../../../api/client';
import { showcaseCall, uploadShowcaseFile } from '../../../api/showcase';
import { Card } from '../../../components/Card';
import { useFeedback } from '../../../components/feedback';
import { PageHeader } from '../../../components/PageHeader';
import { useSession } from '../../../stores/session';
import { setShowcaseAvatar } from '../../../stores/showcase';
import { cropToBlob } from './widgets/crop-image';
import { IMAGE_MIMES, MAX_MB, uploadProblem } from './widgets/upload-check';
import '../showcase.css';
import './widgets.css';

const AVATAR_KEY = ['showcase', 'avatar'];

interface Chosen {
  src: string;
  type: string;
}

export default function AvatarUploadPage() {
  const { message } = useFeedback();
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const current = useQuery({
    queryKey: AVATAR_KEY,
    queryFn: ({ signal }) => showcaseCall(calls.avatar, {}, { signal }),
  });
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  // The chosen image lives in an object URL until the dialog closes.
  useEffect(() => () => (chosen ? URL.revokeObjectURL(chosen.src) : undefined), [chosen]);

  const choose = (file: File | undefined) => {
    if (!file) return;
    const problem = uploadProblem(file, true);
    if (problem) {
      void message.error(problem);
      return;
    }
    setCrop({ x: 0, y: 0 });
    setZoom(1);
    setArea(null);
    setChosen({ src: URL.createObjectURL(file), type: file.type });
  };

  const close = () => {
    setChosen(null);
    setProgress(null);
  };

  const save = async () => {
    if (!chosen || !area) return;
    setProgress(0);
    try {
      const { blob, name } = await cropToBlob(chosen.src, area, chosen.type);
      const file = await uploadShowcaseFile(blob, name, setProgress);
      const { url } = await showcaseCall(calls.avatarUpdate, { fileId: file.id });
      client.setQueryData(AVATAR_KEY, { url });
      // The navbar's avatar follows without a reload (features/showcase-avatar.ts).
      const userId = useSession.getState().user?.id;
      if (userId) setShowcaseAvatar(userId, url);
      void message.success('头像已更新');
      close();
    } catch (error) {
      // A refusal of the service is already shown as a toast by the requester; the crop's own here.
      if (!(error instanceof ApiError)) {
        void message.error(error instanceof Error ? error.message : '头像上传失败');
      }
      setProgress(null);
    }
  };

  const url = current.data?.url ?? null;
  const busy = progress !== null;

  return (
    <div className="page showcase-page" data-testid="avatar-upload-page">
      <PageHeader subtitle="选择图片，裁剪为正方形后上传，设为展示用头像（顶栏头像随之更新）" />
      <Card title="当前头像">
        <div className="avatar-upload">
          <Spin spinning={current.isPending}>
            {url ? (
              <img className="avatar-upload-current" src={url} alt="当前头像" data-testid="avatar-current" />
            ) : (
              <Avatar
                shape="square"
                size={160}
                icon={<UserOutlined />}
                className="avatar-upload-empty"
                data-testid="avatar-empty"
              />
            )}
          </Spin>
          <div className="avatar-upload-side">
            <p className="showcase-muted">
              {url ? '这是当前的展示头像。' : '还没有设置展示头像。'}支持 PNG、JPEG、GIF、WebP 图片，最大{' '}
              {MAX_MB} MB；裁剪后以正方形保存（最大 512 × 512）。
            </p>
            <Button type="primary" icon={<UploadOutlined />} onClick={() => input.current?.click()}>
              {url ? '更换头像' : '上传头像'}
            </Button>
            <input
              ref={input}
              type="file"
              accept={IMAGE_MIMES.join(',')}
              hidden
              aria-label="选择头像图片"
              data-testid="avatar-file"
              onChange={(e) => {
                choose(e.target.files?.[0]);
                // The same file can be chosen again after a cancel.
                e.target.value = '';
              }}
            />
          </div>
        </div>
      </Card>
      <Modal
        open={chosen !== null}
        title="裁剪头像"
        onCancel={busy ? undefined : close}
        maskClosable={false}
        closable={!busy}
        destroyOnHidden
        footer={[
          <Button key="cancel" onClick={close} disabled={busy}>
            取消
          </Button>,
          <Button key="ok" type="primary" onClick={() => void save()} loading={busy} disabled={!area}>
            上传
          </Button>,
        ]}
      >
        {chosen ? (
          <div className="avatar-crop" data-testid="avatar-crop">
            <Cropper
              image={chosen.src}
              crop={crop}
              zoom={zoom}
              aspect={1}
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={(_, pixels) => setArea(pixels)}
            />
          </div>
        ) : null}
        <div className="avatar-crop-zoom">
          <span>缩放</span>
          <Slider
            aria-label="缩放"
            min={1}
            max={3}
            step={0.05}
            value={zoom}
            onChange={setZoom}
            tooltip={{ formatter: (v) => `${Math.round((v ?? 1) * 100)}%` }}
          />
        </div>
        {busy ? <Progress percent={progress} size="small" aria-label="上传进度" /> : null}
      </Modal>
    </div>
  );
}
