import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { setRequestUi } from './api/client';
import { setHeaderSource } from './api/request';
import { lazyUi } from './api/ui';
import { errorReportingOn, installErrorReporting } from './app/error-reporting';
import { createRouter } from './app/router';
import Shell from './layout/Shell';
import { supportViewHeaders } from './stores/support-view';
import './styles/base.css';

setRequestUi(lazyUi);
// The error log: window errors and unhandled rejections, reported in production builds only.
if (errorReportingOn) installErrorReporting();
// Every requester of the console (client, uploads) asks the support view for extra headers.
setHeaderSource(supportViewHeaders);
const router = createRouter(Shell);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
