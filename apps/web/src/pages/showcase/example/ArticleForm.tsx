import { useQueryClient } from '@tanstack/react-query';
import type { ShowcaseArticle } from '@wxc/contract/calls/showcase';
import * as calls from '@wxc/contract/calls/showcase';
import { Button, Form, Input, Rate, Select, Skeleton, Switch } from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import { showcaseCall } from '../../../api/showcase';
import { useFeedback } from '../../../components/feedback';
import { MarkdownField } from './MarkdownField';
import { type ArticleType, TYPE_LABELS } from './query';
import { StatusTag } from './StatusTag';

/** The editor (Tiptap) is its own chunk, loaded with the form. */
const RichTextEditor = lazy(() => import('./RichTextEditor'));

/** The form's control: the lazy editor, with a skeleton while its chunk arrives. */
function RichTextField(props: { value?: string; onChange?: (html: string) => void; id?: string }) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
      <RichTextEditor {...props} aria-label="正文" />
    </Suspense>
  );
}

export interface ArticleValues {
  title: string;
  author: string;
  importance: number;
  type: ArticleType;
  platforms: ShowcaseArticle['platforms'];
  source_uri: string;
  comment_disabled: boolean;
  content_short: string;
  content: string;
}

const PLATFORM_LABELS: Record<ShowcaseArticle['platforms'][number], string> = {
  'a-platform': 'A 平台',
  'b-platform': 'B 平台',
  'c-platform': 'C 平台',
};

const NEW: ArticleValues = {
  title: '',
  author: '',
  importance: 1,
  type: 'CN',
  platforms: ['a-platform'],
  source_uri: '',
  comment_disabled: false,
  content_short: '',
  content: '',
};

function valuesOf(a: ShowcaseArticle): ArticleValues {
  return {
    title: a.title,
    author: a.author,
    importance: a.importance,
    type: a.type,
    platforms: a.platforms,
    source_uri: a.source_uri,
    comment_disabled: a.comment_disabled,
    content_short: a.content_short,
    content: a.content,
  };
}

/** Visible text of an HTML fragment (is the rich text empty?). */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .trim();
}

type Status = 'published' | 'draft';

/**
 * Create Article and Edit Article: the same form. 发布 saves as published (the rich text must not
 * be empty), 保存草稿 as a draft (only the title is needed). The limits are the contract's.
 */
export function ArticleForm({
  article,
  onSaved,
}: {
  article?: ShowcaseArticle;
  onSaved(saved: ShowcaseArticle): void;
}) {
  const [form] = Form.useForm<ArticleValues>();
  const { message } = useFeedback();
  const client = useQueryClient();
  const [saving, setSaving] = useState<Status | null>(null);
  // What the save under way is for (the rules read it: the rich text is required only to publish).
  const intent = useRef<Status>('published');

  const save = async (status: Status) => {
    intent.current = status;
    let values: ArticleValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(status);
    try {
      const body = {
        ...values,
        title: values.title.trim(),
        author: (values.author ?? '').trim(),
        source_uri: (values.source_uri ?? '').trim(),
        content_short: values.content_short ?? '',
        content: values.content ?? '',
        status,
      };
      const saved = article
        ? await showcaseCall(calls.articleUpdate, { id: article.id, ...body })
        : await showcaseCall(calls.articleCreate, body);
      void message.success(
        status === 'published' ? `文章「${saved.title}」已发布` : `文章「${saved.title}」已保存为草稿`,
      );
      await client.invalidateQueries({ queryKey: ['showcase', 'articles'] });
      client.setQueryData(['showcase', 'article', saved.id], saved);
      // Create Article is a cached view: the next visit starts from an empty form.
      if (!article) form.resetFields();
      onSaved(saved);
    } catch {
      // the request layer has shown why
    } finally {
      setSaving(null);
    }
  };

  return (
    <Form<ArticleValues>
      form={form}
      layout="vertical"
      className="article-form"
      initialValues={article ? valuesOf(article) : NEW}
      onFinish={() => void save('published')}
    >
      {article ? (
        <p className="showcase-muted" data-testid="article-meta">
          #{article.id} · {article.display_time} · <StatusTag status={article.status} /> · 阅读{' '}
          {article.pageviews}
        </p>
      ) : null}
      <Form.Item
        label="标题"
        name="title"
        rules={[
          { required: true, whitespace: true, message: '请输入标题' },
          { max: 100, message: '标题不能超过 100 个字符' },
        ]}
      >
        <Input placeholder="文章标题" maxLength={100} showCount />
      </Form.Item>
      <div className="article-grid">
        <Form.Item label="作者" name="author" rules={[{ max: 50, message: '作者不能超过 50 个字符' }]}>
          <Input placeholder="作者" maxLength={50} />
        </Form.Item>
        <Form.Item label="类型" name="type" rules={[{ required: true, message: '请选择类型' }]}>
          <Select
            options={(Object.keys(TYPE_LABELS) as ArticleType[]).map((t) => ({
              value: t,
              label: TYPE_LABELS[t],
            }))}
          />
        </Form.Item>
        <Form.Item
          label="重要性"
          name="importance"
          rules={[{ required: true, type: 'number', min: 1, max: 3, message: '请选择 1-3 颗星' }]}
        >
          <Rate count={3} allowClear={false} aria-label="重要性" />
        </Form.Item>
        <Form.Item label="发布平台" name="platforms">
          <Select
            mode="multiple"
            options={calls.ARTICLE_PLATFORMS.map((p) => ({ value: p, label: PLATFORM_LABELS[p] }))}
          />
        </Form.Item>
        <Form.Item
          label="来源链接"
          name="source_uri"
          rules={[
            { max: 500, message: '来源地址不能超过 500 个字符' },
            { pattern: /^(https?:\/\/\S+)?$/i, message: '来源地址须以 http:// 或 https:// 开头' },
          ]}
        >
          <Input placeholder="https://…" maxLength={500} />
        </Form.Item>
        <Form.Item label="关闭评论" name="comment_disabled" valuePropName="checked">
          <Switch />
        </Form.Item>
      </div>
      <Form.Item
        label="摘要（Markdown）"
        name="content_short"
        rules={[{ max: 500, message: '摘要不能超过 500 个字符' }]}
      >
        <MarkdownField maxLength={500} />
      </Form.Item>
      <Form.Item
        label="正文"
        name="content"
        rules={[
          {
            validator: async (_, v: string | undefined) => {
              if ((v ?? '').length > calls.ARTICLE_CONTENT_MAX) throw new Error('正文过长');
              if (intent.current === 'published' && plainText(v ?? '') === '' && !/<img\b/i.test(v ?? '')) {
                throw new Error('发布前请填写正文');
              }
            },
          },
        ]}
      >
        <RichTextField />
      </Form.Item>
      <div className="article-form-actions">
        <Button
          type="primary"
          loading={saving === 'published'}
          disabled={saving !== null}
          onClick={() => void save('published')}
        >
          发布
        </Button>
        <Button loading={saving === 'draft'} disabled={saving !== null} onClick={() => void save('draft')}>
          保存草稿
        </Button>
      </div>
    </Form>
  );
}
