import {
  ApiOutlined,
  DownOutlined,
  InfoCircleOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  ShoppingCartOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiInfoDialog } from '../features/ApiInfoDialog';
import { ApiOpeningDialog } from '../features/ApiOpeningDialog';
import { useLogout } from '../features/logout';
import { RealNameBadge } from '../features/RealNameBadge';
import { SupportPopover } from '../features/SupportPopover';
import { toggleSidebar, useApp } from '../stores/app';
import { useSession } from '../stores/session';
import { Breadcrumbs } from './Breadcrumbs';

export function Navbar() {
  const { sidebarOpened, device } = useApp();
  const user = useSession((s) => s.user);
  const navigate = useNavigate();
  const logout = useLogout();
  const [dialog, setDialog] = useState<'apiInfo' | 'apiOpening' | null>(null);
  const mobile = device === 'mobile';
  const name = user?.userName || user?.companyName || user?.companyAccount || '用户';
  // The company's initial reads better than the first digit of a phone number.
  const initial = (user?.companyName || name).slice(0, 1);

  const avatarItems: MenuProps['items'] = [
    { key: 'console', icon: <UserOutlined />, label: '控制台' },
    ...(mobile
      ? [
          { key: 'apiInfo', icon: <ApiOutlined />, label: 'API 信息' },
          { key: 'apiOpening', icon: <InfoCircleOutlined />, label: 'API 开通说明' },
          { key: 'buy', icon: <ShoppingCartOutlined />, label: '购买套餐' },
        ]
      : []),
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: '退出登录' },
  ];

  const onAvatarClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'console') navigate('/userInfo/index');
    else if (key === 'buy') navigate('/purchaseRecords/index');
    else if (key === 'apiInfo' || key === 'apiOpening') setDialog(key);
    else if (key === 'logout') void logout();
  };

  return (
    <div className="navbar">
      <button
        type="button"
        className="hamburger"
        aria-label={sidebarOpened ? '收起菜单' : '展开菜单'}
        aria-expanded={sidebarOpened}
        onClick={toggleSidebar}
      >
        {sidebarOpened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
      </button>
      {mobile ? null : <Breadcrumbs />}
      <div className="right-menu">
        <RealNameBadge compact={mobile} />
        {mobile ? null : (
          <>
            <Button type="text" icon={<InfoCircleOutlined />} onClick={() => setDialog('apiOpening')}>
              开通说明
            </Button>
            <Button type="text" icon={<ApiOutlined />} onClick={() => setDialog('apiInfo')}>
              API 信息
            </Button>
          </>
        )}
        <SupportPopover compact={mobile} />
        {mobile ? null : (
          <Link to="/purchaseRecords/index" className="buy-link">
            <ShoppingCartOutlined /> 购买
          </Link>
        )}
        <Dropdown
          menu={{ items: avatarItems, onClick: onAvatarClick }}
          trigger={['click']}
          placement="bottomRight"
        >
          <button type="button" className="avatar-button" aria-label="用户菜单" data-testid="avatar-menu">
            <Avatar size={30} style={{ backgroundColor: 'var(--wxc-primary)' }}>
              {initial}
            </Avatar>
            {mobile ? null : <span className="avatar-name">{name}</span>}
            <DownOutlined className="avatar-caret" />
          </button>
        </Dropdown>
      </div>
      <ApiInfoDialog open={dialog === 'apiInfo'} onClose={() => setDialog(null)} />
      <ApiOpeningDialog open={dialog === 'apiOpening'} onClose={() => setDialog(null)} />
    </div>
  );
}
