/**
 * The showcase's page loaders, one module: the route table (app/showcase-routes.ts, in the console's
 * first chunk) reaches each page through this small lazy chunk, so the first load carries one
 * preload list instead of one per showcase page.
 */
export const documentation = () => import('./documentation');
export const guide = () => import('./guide');
export const permissionPage = () => import('./permission/page');
export const permissionDirective = () => import('./permission/directive');
export const permissionRole = () => import('./permission/role');
export const icons = () => import('./icons');
export const nested = () => import('./nested');
export const exampleCreate = () => import('./example/create');
export const exampleEdit = () => import('./example/edit');
export const exampleList = () => import('./example/list');
export const tab = () => import('./tab');
export const error401 = () => import('../error-401');
export const error404 = () => import('../error-404');
export const errorLog = () => import('./error-log');
export const theme = () => import('./theme');
export const clipboard = () => import('./clipboard');
export const i18n = () => import('./i18n');
