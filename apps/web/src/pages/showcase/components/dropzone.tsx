import { FileOutlined, FilePdfOutlined, InboxOutlined } from '@ant-design/icons';
import type { ShowcaseFile } from '@wxc/contract/calls/showcase';
import { Button, Progress } from 'antd';
import { useRef, useState } from 'react';
import { type FileRejection, useDropzone } from 'react-dropzone';
import { ApiError } from '../../../api/client';
import { uploadShowcaseFile } from '../../../api/showcase';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { formatBytes, MAX_MB, UPLOAD_ACCEPT, uploadProblem } from './widgets/upload-check';
import '../showcase.css';
import './widgets.css';

type Item =
  | { key: string; name: string; size: number; state: 'waiting' | 'sending'; percent: number }
  | { key: string; name: string; size: number; state: 'done'; file: ShowcaseFile }
  | { key: string; name: string; size: number; state: 'refused'; reason: string; local: boolean };

let nextKey = 0;

/** Why react-dropzone turned a file away, in the words of uploadProblem (the same checks). */
function refusal(rejection: FileRejection): string {
  return uploadProblem(rejection.file) ?? (rejection.errors[0]?.message || '这个文件不能上传');
}

export default function DropzonePage() {
  const [items, setItems] = useState<Item[]>([]);
  // One upload at a time, in the order dropped: a queue of promises.
  const queue = useRef(Promise.resolve());

  const update = (key: string, next: Item) => setItems((list) => list.map((i) => (i.key === key ? next : i)));

  const send = (file: File, key: string) => async () => {
    const base = { key, name: file.name, size: file.size };
    update(key, { ...base, state: 'sending', percent: 0 });
    try {
      // Quiet: a refusal is shown on the file's own row, not again as a toast.
      const stored = await uploadShowcaseFile(
        file,
        file.name,
        (percent) => update(key, { ...base, state: 'sending', percent }),
        { quiet: true },
      );
      update(key, { ...base, state: 'done', file: stored });
    } catch (error) {
      const reason = error instanceof ApiError ? error.message : '上传失败，请重试';
      update(key, { ...base, state: 'refused', reason, local: false });
    }
  };

  const onDrop = (accepted: File[], rejected: FileRejection[]) => {
    const added: Item[] = [];
    for (const file of accepted) {
      const key = `f${nextKey++}`;
      added.push({ key, name: file.name, size: file.size, state: 'waiting', percent: 0 });
      queue.current = queue.current.then(send(file, key));
    }
    for (const r of rejected) {
      added.push({
        key: `f${nextKey++}`,
        name: r.file.name,
        size: r.file.size,
        state: 'refused',
        reason: refusal(r),
        local: true,
      });
    }
    setItems((list) => [...added, ...list]);
  };

  const { getRootProps, getInputProps, isDragActive, isDragReject } = useDropzone({
    onDrop,
    accept: UPLOAD_ACCEPT,
    // The size and emptiness checks of uploadProblem (the type is react-dropzone's `accept`).
    validator: (file) => {
      const problem = file.size === undefined ? null : uploadProblem({ type: file.type, size: file.size });
      return problem ? { code: 'showcase-refused', message: problem } : null;
    },
  });

  const zoneClass = ['dropzone', isDragActive ? 'dropzone-active' : '', isDragReject ? 'dropzone-reject' : '']
    .filter(Boolean)
    .join(' ');

  return (
    <div className="page showcase-page" data-testid="dropzone-page">
      <PageHeader subtitle="把文件拖到框里或点击选择，可一次多个；逐个上传并显示进度" />
      <Card>
        <div {...getRootProps({ className: zoneClass, 'aria-label': '上传文件：拖放到此处或点击选择' })}>
          <input {...getInputProps()} data-testid="dropzone-input" />
          <InboxOutlined className="dropzone-icon" />
          <p className="dropzone-title">{isDragActive ? '松开即可上传' : '将文件拖到此处，或点击选择文件'}</p>
          <p className="showcase-muted">支持 PNG、JPEG、GIF、WebP 图片和 PDF，每个文件不超过 {MAX_MB} MB</p>
        </div>
      </Card>
      <Card
        title={`文件（${items.length}）`}
        extra={
          items.some((i) => i.state === 'done' || i.state === 'refused') ? (
            <Button
              size="small"
              onClick={() =>
                setItems((list) => list.filter((i) => i.state === 'waiting' || i.state === 'sending'))
              }
            >
              清除已完成
            </Button>
          ) : null
        }
      >
        {items.length === 0 ? (
          <p className="showcase-muted">还没有文件。</p>
        ) : (
          <ul className="dropzone-list" aria-label="上传的文件">
            {items.map((item) => (
              <li
                key={item.key}
                className={`dropzone-item dropzone-item-${item.state}`}
                data-testid="dropzone-item"
              >
                <div className="dropzone-thumb">
                  {item.state === 'done' && item.file.mime.startsWith('image/') ? (
                    <img src={item.file.url} alt={item.name} />
                  ) : item.name.toLowerCase().endsWith('.pdf') ? (
                    <FilePdfOutlined aria-hidden="true" />
                  ) : (
                    <FileOutlined aria-hidden="true" />
                  )}
                </div>
                <div className="dropzone-info">
                  {item.state === 'done' ? (
                    <a href={item.file.url} target="_blank" rel="noreferrer" className="dropzone-name">
                      {item.name}
                    </a>
                  ) : (
                    <span className="dropzone-name">{item.name}</span>
                  )}
                  <span className="showcase-muted">{formatBytes(item.size)}</span>
                  {item.state === 'waiting' || item.state === 'sending' ? (
                    <Progress
                      percent={item.percent}
                      size="small"
                      status="active"
                      aria-label={`${item.name} 上传进度`}
                    />
                  ) : null}
                  {item.state === 'done' ? <span className="dropzone-ok">已上传</span> : null}
                  {item.state === 'refused' ? (
                    <span className="dropzone-error" role="alert">
                      {item.local ? '未上传：' : '服务器拒绝：'}
                      {item.reason}
                    </span>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
