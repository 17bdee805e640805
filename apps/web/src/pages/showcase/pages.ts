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
export const componentsTinymce = () => import('./components/tinymce');
export const componentsMarkdown = () => import('./components/markdown');
export const componentsJsonEditor = () => import('./components/json-editor');
export const componentsSplitPane = () => import('./components/split-pane');
export const componentsAvatarUpload = () => import('./components/avatar-upload');
export const componentsDropzone = () => import('./components/dropzone');
export const componentsSticky = () => import('./components/sticky');
export const componentsCountTo = () => import('./components/count-to');
export const componentsMixin = () => import('./components/mixin');
export const componentsBackToTop = () => import('./components/back-to-top');
export const componentsDragDialog = () => import('./components/drag-dialog');
export const componentsDragSelect = () => import('./components/drag-select');
export const componentsDndList = () => import('./components/dnd-list');
export const componentsDragKanban = () => import('./components/drag-kanban');
export const chartsKeyboard = () => import('./charts/keyboard');
export const chartsLine = () => import('./charts/line');
export const chartsMixChart = () => import('./charts/mixchart');
export const excelExport = () => import('./excel/export-excel');
export const excelExportSelected = () => import('./excel/export-selected-excel');
export const excelExportMergeHeader = () => import('./excel/export-merge-header');
export const excelUpload = () => import('./excel/upload-excel');
export const zipDownload = () => import('./zip/download');
export const pdf = () => import('./pdf');
export const pdfDownload = () => import('./pdf/download');
