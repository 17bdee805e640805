import type { RoleValue } from '@wxc/contract/domain';
import type { ComponentType } from 'react';

/**
 * The route table: the single source for the router, the sidebar menu, breadcrumbs, tabs, page
 * titles and role access (spec §2, §3 "route entry"). Icons are named here and drawn by the shell,
 * so this module (needed by the guard on the login page) pulls in no UI library.
 */
export type IconKey =
  | 'dashboard'
  | 'package'
  | 'api'
  | 'team'
  | 'wechat'
  | 'experiment'
  | 'play'
  | 'user'
  | 'operator';

export interface RouteMeta {
  title: string;
  icon?: IconKey;
  /** Only users holding one of these roles may see the route; `admin` sees all (spec §5, §6). */
  roles?: RoleValue[];
  /** Pinned tab that cannot be closed. */
  affix?: boolean;
  /** For hidden pages: the page shown before this one in the breadcrumbs. */
  parent?: string;
  /**
   * A customer's page. An operator sees it through the read-only support view: with a company
   * chosen, as that company sees it; without one, a company chooser (layout/AppMain.tsx).
   */
  customer?: boolean;
  /** A page of the template showcase (app/showcase-routes.ts): shown only while SHOWCASE is on. */
  showcase?: boolean;
  /** Not kept when its tab is left: the next visit mounts it afresh (cached views, layout/AppMain). */
  noCache?: boolean;
  /** The query is the page's own state (?tab=): one tab and one cached view per path, not per query. */
  tabByPath?: boolean;
}

export type PageModule = { default: ComponentType };

export interface AppRoute {
  path: string;
  meta: RouteMeta;
  /** Not in the menu (still reachable, still guarded). */
  hidden?: boolean;
  load: () => Promise<PageModule>;
}

export interface MenuGroup {
  /** Group heading in the sidebar; empty for the top entries. */
  title: string;
  routes: AppRoute[];
}

export const HOME_PATH = '/dashboard';
/** Where operators land (issue 11 §1). */
export const OPERATOR_HOME = '/operator/index';

export const shellGroups: MenuGroup[] = [
  {
    title: '',
    routes: [
      {
        path: '/dashboard',
        meta: { title: '用户中心', icon: 'dashboard', affix: true, customer: true },
        load: () => import('../pages/dashboard'),
      },
    ],
  },
  {
    title: '套餐 & 服务',
    routes: [
      {
        path: '/purchaseRecords/index',
        meta: { title: '套餐', icon: 'package', customer: true },
        load: () => import('../pages/purchase-records'),
      },
      {
        path: '/myAPI/index',
        meta: { title: '我的API', icon: 'api', customer: true },
        load: () => import('../pages/my-api'),
      },
    ],
  },
  {
    title: '管理 & 账号',
    routes: [
      {
        path: '/accountList/index',
        meta: { title: '子账号', icon: 'team', customer: true },
        load: () => import('../pages/account-list'),
      },
      {
        path: '/wechatList/index',
        meta: { title: '微信管理', icon: 'wechat', customer: true },
        load: () => import('../pages/wechat-list'),
      },
    ],
  },
  {
    title: '测试 & 模拟',
    routes: [
      {
        path: '/onlineTest/index',
        meta: { title: '在线测试', icon: 'experiment', customer: true },
        load: () => import('../pages/online-test'),
      },
      {
        path: '/moniyanshi/index',
        meta: { title: '模拟演示', icon: 'play', customer: true },
        load: () => import('../pages/moniyanshi'),
      },
    ],
  },
  {
    title: '运营',
    routes: [
      {
        path: '/operator/index',
        meta: { title: '运营管理', icon: 'operator', roles: ['admin'], tabByPath: true },
        load: () => import('../pages/operator'),
      },
    ],
  },
  {
    title: '',
    routes: [
      {
        path: '/userInfo/index',
        hidden: true,
        meta: { title: '控制台', icon: 'user' },
        load: () => import('../pages/user-info'),
      },
      {
        path: '/userInfo/resetPass',
        hidden: true,
        meta: { title: '修改密码', icon: 'user', parent: '/userInfo/index' },
        load: () => import('../pages/user-info/reset-pass'),
      },
      {
        path: '/userInfo/resetPhone',
        hidden: true,
        meta: { title: '修改手机号', icon: 'user', parent: '/userInfo/index' },
        load: () => import('../pages/user-info/reset-phone'),
      },
    ],
  },
];

export const shellRoutes: AppRoute[] = shellGroups.flatMap((g) => g.routes);

/** Pages outside the shell. */
export const publicRoutes: AppRoute[] = [
  { path: '/login', meta: { title: '登录' }, load: () => import('../pages/login/in-console') },
  { path: '/register', meta: { title: '注册' }, load: () => import('../pages/login/in-console') },
  { path: '/agreement', meta: { title: '服务协议' }, load: () => import('../pages/agreement') },
  { path: '/auth-redirect', meta: { title: '正在跳转' }, load: () => import('../pages/auth-redirect') },
  { path: '/404', meta: { title: '页面不存在' }, load: () => import('../pages/error-404') },
  { path: '/401', meta: { title: '无权访问' }, load: () => import('../pages/error-401') },
];

/** Open without a token (spec §2 navigation guard). */
export const WHITE_LIST: readonly string[] = ['/login', '/register', '/auth-redirect', '/agreement'];

export function findShellRoute(pathname: string): AppRoute | undefined {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return shellRoutes.find((r) => r.path.toLowerCase() === clean.toLowerCase());
}

export function findRoute(pathname: string): AppRoute | undefined {
  return findShellRoute(pathname) ?? publicRoutes.find((r) => r.path === pathname);
}

export const affixRoutes: AppRoute[] = shellRoutes.filter((r) => r.meta.affix);
