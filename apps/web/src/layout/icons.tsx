import {
  ApiOutlined,
  ControlOutlined,
  DashboardOutlined,
  ExperimentOutlined,
  PlayCircleOutlined,
  ShoppingOutlined,
  TeamOutlined,
  UserOutlined,
  WechatOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { IconKey } from '../app/routes';

/** The route table names its icons; the shell draws them. */
export const ROUTE_ICONS: Record<IconKey, ReactNode> = {
  dashboard: <DashboardOutlined />,
  package: <ShoppingOutlined />,
  api: <ApiOutlined />,
  team: <TeamOutlined />,
  wechat: <WechatOutlined />,
  experiment: <ExperimentOutlined />,
  play: <PlayCircleOutlined />,
  user: <UserOutlined />,
  operator: <ControlOutlined />,
};
