import type { ShowcaseArticle } from '@wxc/contract/calls/showcase';
import { Tag } from 'antd';

const STATUS: Record<ShowcaseArticle['status'], { color: string; text: string }> = {
  published: { color: 'success', text: '已发布' },
  draft: { color: 'default', text: '草稿' },
  deleted: { color: 'error', text: '已删除' },
};

export function StatusTag({ status }: { status: ShowcaseArticle['status'] }) {
  const s = STATUS[status];
  return <Tag color={s.color}>{s.text}</Tag>;
}
