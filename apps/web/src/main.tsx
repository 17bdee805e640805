import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { setRequestUi } from './api/client';
import { lazyUi } from './api/ui';
import { createRouter } from './app/router';
import './styles/base.css';

setRequestUi(lazyUi);
const router = createRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
