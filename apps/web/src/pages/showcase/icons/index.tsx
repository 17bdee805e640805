import { SearchOutlined } from '@ant-design/icons';
import { Empty, Input, Segmented, Spin, Tabs } from 'antd';
import { type ReactNode, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Card } from '../../../components/Card';
import { copyText } from '../../../components/copy-text';
import { useFeedback } from '../../../components/feedback';
import { PageHeader } from '../../../components/PageHeader';
import { type IconTheme, iconComponentName, iconJsx, matchesIcon } from './icon-names';
import '../showcase.css';
import './icons.css';

const THEMES: {
  value: IconTheme;
  label: string;
  load: () => Promise<{ default: Record<string, string> }>;
}[] = [
  { value: 'outlined', label: '线框风格', load: () => import('./outlined') },
  { value: 'filled', label: '实底风格', load: () => import('./filled') },
  { value: 'twotone', label: '双色风格', load: () => import('./twotone') },
];

interface GalleryIcon {
  name: string;
  jsx: string;
  draw: ReactNode;
  /** Where the console uses it. */
  note?: string;
}

/** The console's own icons: the menu's (layout/icons.tsx, layout/showcase-icons.tsx) and the logo. */
const OWN: [name: string, file: string, note: string][] = [
  ['DashboardOutlined', 'dashboard', '菜单 · 用户中心'],
  ['ShoppingOutlined', 'shopping', '菜单 · 套餐'],
  ['ApiOutlined', 'api', '菜单 · 我的API'],
  ['TeamOutlined', 'team', '菜单 · 子账号'],
  ['WechatOutlined', 'wechat', '菜单 · 微信管理'],
  ['ExperimentOutlined', 'experiment', '菜单 · 在线测试'],
  ['PlayCircleOutlined', 'play-circle', '菜单 · 模拟演示'],
  ['UserOutlined', 'user', '菜单 · 控制台'],
  ['ControlOutlined', 'control', '菜单 · 运营管理'],
  ['ReadOutlined', 'read', '模板示例 · 文档'],
  ['CompassOutlined', 'compass', '模板示例 · 引导页'],
  ['LockOutlined', 'lock', '模板示例 · 权限'],
  ['AppstoreOutlined', 'appstore', '模板示例 · 图标'],
  ['PartitionOutlined', 'partition', '模板示例 · 路由嵌套'],
  ['FormOutlined', 'form', '模板示例 · 综合实例'],
  ['SwitcherOutlined', 'switcher', '模板示例 · 标签页'],
  ['WarningOutlined', 'warning', '模板示例 · 错误页面'],
  ['BugOutlined', 'bug', '模板示例 · 错误日志'],
  ['BgColorsOutlined', 'bg-colors', '模板示例 · 换肤'],
  ['SnippetsOutlined', 'snippets', '模板示例 · 剪贴板'],
  ['GlobalOutlined', 'global', '模板示例 · 国际化'],
  ['LinkOutlined', 'link', '模板示例 · 外链'],
];

/** An icon of the set's SVG file, drawn like antd's. */
function drawSvg(svg: string | undefined): ReactNode {
  return (
    <span
      className="anticon"
      role="img"
      aria-hidden
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the icon set's own SVG files, bundled at build time; no user input reaches it.
      dangerouslySetInnerHTML={{ __html: svg ?? '' }}
    />
  );
}

/** The outlined set by file name (`dashboard`), for the console's own icons. */
function ownIcons(outlined: Record<string, string>): GalleryIcon[] {
  const byFile = new Map(
    Object.entries(outlined).map(([file, svg]) => [file.replace(/^.*\//, '').replace(/\.svg$/, ''), svg]),
  );
  return [
    ...OWN.map(([name, file, note]) => ({ name, jsx: iconJsx(name), draw: drawSvg(byFile.get(file)), note })),
    {
      name: 'Logo',
      jsx: '<img src="/favicon.svg" alt="" width={28} height={28} />',
      draw: <img src="/favicon.svg" alt="" width={24} height={24} />,
      note: '侧栏标志',
    },
  ];
}

function IconGrid({ icons, query }: { icons: GalleryIcon[]; query: string }) {
  const { message } = useFeedback();
  const shown = icons.filter((i) => matchesIcon(i.name, query));
  if (shown.length === 0) return <Empty description="没有匹配的图标" />;
  return (
    <ul className="icon-grid" aria-label="图标">
      {shown.map((icon) => (
        <li key={icon.name + (icon.note ?? '')}>
          <button
            type="button"
            className="icon-tile"
            title={`点击复制 ${icon.jsx}`}
            data-icon={icon.name}
            onClick={async () => {
              if (await copyText(icon.jsx)) void message.success(`已复制 ${icon.jsx}`);
              else void message.warning('浏览器不允许自动复制，请手动选中后复制');
            }}
          >
            <span className="icon-draw">{icon.draw}</span>
            <span className="icon-name">{icon.name}</span>
            {icon.note ? <span className="icon-note">{icon.note}</span> : null}
          </button>
        </li>
      ))}
    </ul>
  );
}

type Sets = Partial<Record<IconTheme, { icons: GalleryIcon[]; files: Record<string, string> }>>;

/** The icon set of each style, loaded when first shown. */
function useIconSets(theme: IconTheme): Sets {
  const [sets, setSets] = useState<Sets>({});
  useEffect(() => {
    if (sets[theme]) return;
    let live = true;
    const entry = THEMES.find((t) => t.value === theme)!;
    void entry.load().then((m) => {
      if (!live) return;
      const icons = Object.entries(m.default)
        .map(([file, svg]) => {
          const name = iconComponentName(file, theme);
          return {
            name,
            jsx: iconJsx(name),
            // The icon set's own SVG files, from the package: no user input reaches this markup.
            draw: drawSvg(svg),
          };
        })
        .sort((a, b) => a.name.localeCompare(b.name));
      setSets((s) => ({ ...s, [theme]: { icons, files: m.default } }));
    });
    return () => {
      live = false;
    };
  }, [theme, sets]);
  return sets;
}

function AntdGallery({
  query,
  theme,
  setTheme,
  icons,
}: {
  query: string;
  theme: IconTheme;
  setTheme(theme: IconTheme): void;
  icons: GalleryIcon[] | undefined;
}) {
  return (
    <>
      <Segmented
        value={theme}
        onChange={(v) => setTheme(v as IconTheme)}
        options={THEMES.map((t) => ({ value: t.value, label: t.label }))}
      />
      <div className="icon-count showcase-muted">{icons ? `共 ${icons.length} 个` : ''}</div>
      {icons ? <IconGrid icons={icons} query={query} /> : <Spin />}
    </>
  );
}

/** Icons: the @ant-design/icons gallery and the console's own icons; search; a click copies the JSX. */
export default function IconsPage() {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const [theme, setTheme] = useState<IconTheme>('outlined');
  const sets = useIconSets(theme);
  const outlined = sets.outlined?.files;
  const own = useMemo(() => (outlined ? ownIcons(outlined) : undefined), [outlined]);
  return (
    <div className="page showcase-page" data-testid="icons-page">
      <PageHeader subtitle="点击图标即可复制它的 JSX 代码" />
      <Card>
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder="搜索图标，例如 arrow、user"
          aria-label="搜索图标"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          style={{ maxWidth: 360, marginBottom: 12 }}
        />
        <Tabs
          items={[
            {
              key: 'antd',
              label: 'Ant Design 图标',
              children: (
                <AntdGallery query={deferred} theme={theme} setTheme={setTheme} icons={sets[theme]?.icons} />
              ),
            },
            {
              key: 'own',
              label: '控制台图标',
              children: own ? <IconGrid icons={own} query={deferred} /> : <Spin />,
            },
          ]}
        />
      </Card>
    </div>
  );
}
