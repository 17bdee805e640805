import { Alert, Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import {
  type Content,
  type ContentErrors,
  createJSONEditor,
  isContentParseError,
  isMenuButton,
  type JSONEditorPropsOptional,
  type JsonEditor,
  jsonQueryLanguage,
  type MenuItem,
  Mode,
  ValidationSeverity,
  type Validator,
} from 'vanilla-jsoneditor';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { checkRules, pathLabel, SAMPLE } from './editors/json-rules';
import '../showcase.css';
import './editors.css';

const MODE_LABELS: Record<string, string> = { text: '文本', tree: '树形', table: '表格' };
const MODE_NAMES: Record<string, string> = { text: '文本模式', tree: '树形模式', table: '表格模式' };
/** The main menu's tooltips in Chinese (by how the library's English ones start). */
const TITLES: [string, string][] = [
  ['Expand all', '全部展开'],
  ['Collapse all', '全部折叠'],
  ['Format JSON', '格式化（Ctrl+I）'],
  ['Compact JSON', '压缩（Ctrl+Shift+I）'],
  ['Sort', '排序'],
  ['Transform', '转换（筛选、排序、投影）'],
  ['Search', '搜索（Ctrl+F）'],
  ['Undo', '撤销（Ctrl+Z）'],
  ['Redo', '重做（Ctrl+Shift+Z）'],
  ['Copy', '复制（Ctrl+C）'],
];

const inChinese = (items: MenuItem[]): MenuItem[] =>
  items.map((item) => {
    if (!isMenuButton(item)) return item;
    const mode = item.className?.includes('jse-group-button') ? item.text : undefined;
    if (mode && MODE_LABELS[mode])
      return { ...item, text: MODE_LABELS[mode], title: `切换到${MODE_NAMES[mode]}` };
    const title = TITLES.find(([english]) => item.title?.startsWith(english))?.[1];
    return title ? { ...item, title } : item;
  });

const validator: Validator = (json) =>
  checkRules(json).map(({ path, message }) => ({ path, message, severity: ValidationSeverity.error }));

const initialContent = (): Content => ({ json: structuredClone(SAMPLE) });

/**
 * /components/json-editor (JSON 编辑器): vanilla-jsoneditor (ISC) in tree, text and table mode, with
 * the example's rules checked on every change; what is wrong (a parse error, or which values break
 * which rule) is listed under the editor.
 */
export default function JsonEditorPage() {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<JsonEditor | null>(null);
  // Kept outside the editor: a cached page that is hidden destroys it, showing it again makes a new one.
  const content = useRef<Content>(initialContent());
  const mode = useRef<Mode>(Mode.tree);
  const [errors, setErrors] = useState<ContentErrors | undefined>(undefined);

  useEffect(() => {
    if (!host.current) return;
    const props: JSONEditorPropsOptional = {
      content: content.current,
      mode: mode.current,
      validator,
      queryLanguages: [jsonQueryLanguage],
      ariaLabel: 'JSON 编辑器',
      onRenderMenu: inChinese,
      onChange: (next, _previous, status) => {
        content.current = next;
        setErrors(status.contentErrors);
      },
      onChangeMode: (next) => {
        mode.current = next;
        setErrors(created.validate());
      },
    };
    const created = createJSONEditor({ target: host.current, props });
    editor.current = created;
    setErrors(created.validate());
    return () => {
      editor.current = null;
      void created.destroy();
    };
  }, []);

  const reset = () => {
    content.current = initialContent();
    editor.current?.set(content.current);
    setErrors(editor.current?.validate());
  };

  return (
    <div className="page showcase-page" data-testid="json-editor-page">
      <PageHeader subtitle="树形、文本、表格三种模式编辑 JSON；格式错误和不符合示例规则的值会列在下方" />
      <Card
        title="示例配置"
        extra={
          <Button size="small" onClick={reset}>
            重置示例
          </Button>
        }
      >
        <div ref={host} className="json-editor-host" data-testid="json-editor" />
        <div className="json-editor-status" aria-live="polite" data-testid="json-editor-status">
          <JsonStatus errors={errors} />
        </div>
        <p className="showcase-muted json-editor-rules">
          示例规则：name 为非空字符串，version 为不小于 1 的整数，enabled 为布尔值，tags
          为字符串数组，owner.email 为邮箱地址。
        </p>
      </Card>
    </div>
  );
}

function JsonStatus({ errors }: { errors: ContentErrors | undefined }) {
  if (!errors || (!isContentParseError(errors) && errors.validationErrors.length === 0))
    return <Alert type="success" showIcon title="JSON 有效，且符合示例规则" />;
  if (isContentParseError(errors)) {
    const { line, column, message } = errors.parseError;
    const where =
      line === undefined ? '' : `（第 ${line + 1} 行${column === undefined ? '' : `第 ${column + 1} 列`}）`;
    return (
      <Alert
        type="error"
        showIcon
        title={`JSON 格式错误${where}`}
        description={
          <>
            <code>{message}</code>
            {errors.isRepairable ? <div>可在编辑器提示中点击 “Auto repair” 自动修复。</div> : null}
          </>
        }
      />
    );
  }
  return (
    <Alert
      type="warning"
      showIcon
      title={`有 ${errors.validationErrors.length} 处不符合示例规则`}
      description={
        <ul className="json-editor-problems">
          {errors.validationErrors.map((e) => (
            <li key={`${pathLabel(e.path)}:${e.message}`}>
              <code>{pathLabel(e.path)}</code>：{e.message}
            </li>
          ))}
        </ul>
      }
    />
  );
}
