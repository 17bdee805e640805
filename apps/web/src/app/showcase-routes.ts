import type { ShowcaseRole } from '../stores/showcase';
import type { AppRoute, PageModule, RouteMeta } from './routes';
import { isExternal } from './showcase-table';

export type { ShowcaseRole } from '../stores/showcase';

/**
 * The template showcase's routes (spec §2 "Template demo routes", DESIGN.md §10): the spec's paths,
 * titles, icons and meta (affix, noCache, roles, hidden, alwaysShow), on the same shell and menu as
 * the product's pages when the SHOWCASE switch is on (siteInfo.showcase). Every page is its own lazy
 * chunk, and so is this table (app/showcase-table.ts loads it while the switch is on). Its roles are the
 * template's mock roles (admin, editor, visitor: stores/showcase.ts), not the product's.
 */

export type ShowcaseIcon =
  | 'documentation'
  | 'guide'
  | 'lock'
  | 'icon'
  | 'nested'
  | 'example'
  | 'edit'
  | 'list'
  | 'tab'
  | 'error'
  | 'bug'
  | 'theme'
  | 'clipboard'
  | 'i18n'
  | 'link'
  | 'component'
  | 'chart'
  | 'excel'
  | 'zip'
  | 'pdf';

export interface ShowcaseNode {
  /** The full path (`:id` for a digits-only parameter), or an https URL for an external link. */
  path: string;
  title: string;
  icon?: ShowcaseIcon;
  /** Shown only to these showcase roles; admin sees all (spec §5). */
  roles?: ShowcaseRole[];
  /** Pinned tab. */
  affix?: boolean;
  /** Not kept when its tab is left (cached views). */
  noCache?: boolean;
  /** Not in the menu (a typed URL still works, still guarded). */
  hidden?: boolean;
  /** Shown as a sub-menu even with one visible child. */
  alwaysShow?: boolean;
  /** A parent: opening its own path goes here. */
  redirect?: string;
  /** The query is the page's own state (?tab=): one tab and one cached view per path. */
  tabByPath?: boolean;
  load?: () => Promise<PageModule>;
  children?: ShowcaseNode[];
}

type Pages = typeof import('../pages/showcase/pages');
/** A page, through the showcase's one loader module (pages/showcase/pages.ts). */
const page = (name: keyof Pages) => (): Promise<PageModule> =>
  import('../pages/showcase/pages').then((m) => m[name]());

export const EXTERNAL_LINK = 'https://github.com/PanJiaChen/vue-element-admin';

export const showcaseTree: ShowcaseNode[] = [
  {
    path: '/documentation/index',
    title: '文档',
    icon: 'documentation',
    affix: true,
    load: page('documentation'),
  },
  {
    path: '/guide/index',
    title: '引导页',
    icon: 'guide',
    noCache: true,
    load: page('guide'),
  },
  {
    path: '/permission',
    title: '权限测试页',
    icon: 'lock',
    alwaysShow: true,
    roles: ['admin', 'editor'],
    redirect: '/permission/page',
    children: [
      {
        path: '/permission/page',
        title: '页面权限',
        roles: ['admin'],
        load: page('permissionPage'),
      },
      {
        path: '/permission/directive',
        title: '指令权限',
        load: page('permissionDirective'),
      },
      {
        path: '/permission/role',
        title: '角色权限',
        roles: ['admin'],
        load: page('permissionRole'),
      },
    ],
  },
  { path: '/icon/index', title: '图标', icon: 'icon', load: page('icons') },
  {
    path: '/components',
    title: '组件',
    icon: 'component',
    redirect: '/components/tinymce',
    children: [
      { path: '/components/tinymce', title: '富文本编辑器', load: page('componentsTinymce') },
      { path: '/components/markdown', title: 'Markdown', load: page('componentsMarkdown') },
      { path: '/components/json-editor', title: 'JSON 编辑器', load: page('componentsJsonEditor') },
      { path: '/components/split-pane', title: 'Splitpane', load: page('componentsSplitPane') },
      { path: '/components/avatar-upload', title: '头像上传', load: page('componentsAvatarUpload') },
      { path: '/components/dropzone', title: 'Dropzone', load: page('componentsDropzone') },
      { path: '/components/sticky', title: 'Sticky', load: page('componentsSticky') },
      { path: '/components/count-to', title: 'Count To', load: page('componentsCountTo') },
      { path: '/components/mixin', title: '小组件', load: page('componentsMixin') },
      { path: '/components/back-to-top', title: '返回顶部', load: page('componentsBackToTop') },
      { path: '/components/drag-dialog', title: '拖拽 Dialog', load: page('componentsDragDialog') },
      { path: '/components/drag-select', title: '拖拽 Select', load: page('componentsDragSelect') },
      { path: '/components/dnd-list', title: '列表拖拽', load: page('componentsDndList') },
      { path: '/components/drag-kanban', title: '可拖拽看板', load: page('componentsDragKanban') },
    ],
  },
  {
    path: '/charts',
    title: '图表',
    icon: 'chart',
    redirect: '/charts/keyboard',
    children: [
      { path: '/charts/keyboard', title: '键盘图表', noCache: true, load: page('chartsKeyboard') },
      { path: '/charts/line', title: '折线图', noCache: true, load: page('chartsLine') },
      { path: '/charts/mixchart', title: '混合图表', noCache: true, load: page('chartsMixChart') },
    ],
  },
  {
    path: '/nested',
    title: '路由嵌套',
    icon: 'nested',
    redirect: '/nested/menu1/menu1-1',
    children: [
      {
        path: '/nested/menu1',
        title: '菜单 1',
        redirect: '/nested/menu1/menu1-1',
        children: [
          { path: '/nested/menu1/menu1-1', title: '菜单 1-1', load: page('nested') },
          {
            path: '/nested/menu1/menu1-2',
            title: '菜单 1-2',
            redirect: '/nested/menu1/menu1-2/menu1-2-1',
            children: [
              {
                path: '/nested/menu1/menu1-2/menu1-2-1',
                title: '菜单 1-2-1',
                load: page('nested'),
              },
              {
                path: '/nested/menu1/menu1-2/menu1-2-2',
                title: '菜单 1-2-2',
                load: page('nested'),
              },
            ],
          },
          { path: '/nested/menu1/menu1-3', title: '菜单 1-3', load: page('nested') },
        ],
      },
      { path: '/nested/menu2', title: '菜单 2', load: page('nested') },
    ],
  },
  {
    path: '/example',
    title: '综合实例',
    icon: 'example',
    redirect: '/example/list',
    children: [
      {
        path: '/example/create',
        title: 'Create Article',
        icon: 'edit',
        load: page('exampleCreate'),
      },
      {
        path: '/example/edit/:id',
        title: 'Edit Article',
        hidden: true,
        noCache: true,
        load: page('exampleEdit'),
      },
      {
        path: '/example/list',
        title: 'Article List',
        icon: 'list',
        load: page('exampleList'),
      },
    ],
  },
  {
    path: '/tab/index',
    title: '标签页',
    icon: 'tab',
    tabByPath: true,
    load: page('tab'),
  },
  {
    path: '/error',
    title: '错误页面',
    icon: 'error',
    redirect: '/error/401',
    children: [
      { path: '/error/401', title: '401', load: page('error401') },
      { path: '/error/404', title: '404', load: page('error404') },
    ],
  },
  {
    path: '/error-log/log',
    title: '错误日志',
    icon: 'bug',
    load: page('errorLog'),
  },
  {
    path: '/excel',
    title: 'Excel',
    icon: 'excel',
    redirect: '/excel/export-excel',
    children: [
      { path: '/excel/export-excel', title: '导出 Excel', load: page('excelExport') },
      { path: '/excel/export-selected-excel', title: '导出 已选择项', load: page('excelExportSelected') },
      { path: '/excel/export-merge-header', title: '导出 多级表头', load: page('excelExportMergeHeader') },
      { path: '/excel/upload-excel', title: '上传 Excel', load: page('excelUpload') },
    ],
  },
  {
    path: '/zip',
    title: 'Zip',
    icon: 'zip',
    alwaysShow: true,
    redirect: '/zip/download',
    children: [{ path: '/zip/download', title: 'Export Zip', load: page('zipDownload') }],
  },
  { path: '/pdf/index', title: 'PDF', icon: 'pdf', load: page('pdf') },
  // The print view of /pdf/index (the template's, outside the menu): opens the print dialog.
  { path: '/pdf/download', title: 'PDF 打印', hidden: true, noCache: true, load: page('pdfDownload') },
  { path: '/theme/index', title: '换肤', icon: 'theme', load: page('theme') },
  {
    path: '/clipboard/index',
    title: '剪贴板',
    icon: 'clipboard',
    load: page('clipboard'),
  },
  { path: '/i18n/index', title: '国际化', icon: 'i18n', load: page('i18n') },
  { path: EXTERNAL_LINK, title: '外链', icon: 'link' },
];

/** admin sees all; a route with roles only its holders; one without roles everyone (spec §5). */
export function canSeeShowcase(routeRoles: readonly ShowcaseRole[] | undefined, role: ShowcaseRole): boolean {
  if (role === 'admin' || !routeRoles) return true;
  return routeRoles.includes(role);
}

/** The showcase menu for a role: hidden and forbidden entries gone, parents left empty dropped. */
export function filterShowcase(nodes: readonly ShowcaseNode[], role: ShowcaseRole): ShowcaseNode[] {
  const out: ShowcaseNode[] = [];
  for (const node of nodes) {
    if (node.hidden || !canSeeShowcase(node.roles, role)) continue;
    if (node.children) {
      const children = filterShowcase(node.children, role);
      if (children.length === 0) continue;
      out.push({ ...node, children });
    } else out.push(node);
  }
  return out;
}

function metaOf(node: ShowcaseNode): RouteMeta {
  return {
    title: node.title,
    showcase: true,
    ...(node.affix ? { affix: true } : {}),
    ...(node.noCache ? { noCache: true } : {}),
    ...(node.tabByPath ? { tabByPath: true } : {}),
  };
}

interface Flat {
  node: ShowcaseNode;
  /** Parents first; the node itself is not included. */
  ancestors: ShowcaseNode[];
}

function flatten(nodes: readonly ShowcaseNode[], ancestors: ShowcaseNode[] = []): Flat[] {
  return nodes.flatMap((node) => [
    { node, ancestors },
    ...(node.children ? flatten(node.children, [...ancestors, node]) : []),
  ]);
}

const ALL = flatten(showcaseTree).filter((f) => !isExternal(f.node.path));

/** The showcase's pages, as route table entries for the router (a handle each, lazily loaded). */
export const showcaseRoutes: AppRoute[] = ALL.filter((f) => f.node.load).map(({ node }) => ({
  path: node.path,
  meta: metaOf(node),
  ...(node.hidden ? { hidden: true } : {}),
  load: node.load!,
}));

/** The parents' own paths and where they lead. */
export const showcaseRedirects: { path: string; to: string }[] = ALL.filter((f) => f.node.redirect).map(
  ({ node }) => ({ path: node.path, to: node.redirect! }),
);

export const showcaseAffix: AppRoute[] = showcaseRoutes.filter((r) => r.meta.affix);

/** A path against a pattern whose `:param` segments are digits only (spec §5: the article id). */
function matches(pattern: string, pathname: string): 'yes' | 'no' | 'bad-param' {
  const p = pattern.split('/');
  const s = pathname.split('/');
  if (p.length !== s.length) return 'no';
  let bad = false;
  for (let i = 0; i < p.length; i++) {
    if (p[i]!.startsWith(':')) {
      if (!/^\d+$/.test(s[i]!)) bad = true;
    } else if (p[i]!.toLowerCase() !== s[i]!.toLowerCase()) return 'no';
  }
  return bad ? 'bad-param' : 'yes';
}

export type ShowcaseMatch =
  | { kind: 'page'; route: AppRoute; roles: ShowcaseRole[] | undefined; ancestors: ShowcaseNode[] }
  | { kind: 'redirect'; to: string; roles: ShowcaseRole[] | undefined }
  | { kind: 'invalid' };

/**
 * What a path is in the showcase: a page (with the roles of it and its parents, all of which must
 * allow), a parent that redirects, a page pattern with a bad parameter, or nothing of the showcase.
 */
export function matchShowcase(pathname: string): ShowcaseMatch | undefined {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const { node, ancestors } of ALL) {
    const m = matches(node.path, clean);
    if (m === 'no') continue;
    if (m === 'bad-param') return { kind: 'invalid' };
    const roles = [...ancestors, node].flatMap((n) => (n.roles ? [n.roles] : []));
    // Every level's roles must admit the user: keep the narrowest list (checked level by level).
    const narrowest = roles.reduce<ShowcaseRole[] | undefined>(
      (acc, r) => (acc ? acc.filter((x) => r.includes(x)) : [...r]),
      undefined,
    );
    if (node.redirect) return { kind: 'redirect', to: node.redirect, roles: narrowest };
    const route = showcaseRoutes.find((r) => r.path === node.path);
    if (route) return { kind: 'page', route, roles: narrowest, ancestors };
  }
  return undefined;
}

/** The showcase page for a router pattern (a handle's path). */
export function findShowcaseRoute(
  pattern: string,
): { route: AppRoute; ancestors: ShowcaseNode[] } | undefined {
  const f = ALL.find((x) => x.node.path === pattern && x.node.load);
  const route = f && showcaseRoutes.find((r) => r.path === pattern);
  return f && route ? { route, ancestors: f.ancestors } : undefined;
}
