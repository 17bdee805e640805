import {
  ApiOutlined,
  ControlOutlined,
  DownOutlined,
  InfoCircleOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SettingOutlined,
  ShoppingCartOutlined,
  UserOutlined,
  WechatOutlined,
} from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { OPERATOR_HOME } from '../app/routes';
import { useLogout } from '../features/logout';
import { RealNameBadge } from '../features/RealNameBadge';
import { SupportPopover } from '../features/SupportPopover';
import { useShowcaseAvatar } from '../features/showcase-avatar';
import { useWxCountLive } from '../features/wx-count';
import { toggleSidebar, useApp } from '../stores/app';
import { useSession } from '../stores/session';
import { useSettings } from '../stores/settings';
import { isOperator } from '../utils/identity';
import { Breadcrumbs } from './Breadcrumbs';
import { openSettingsPanel } from './settings-panel';

// Loaded when first needed: the dialogs when opened, the operators' company switcher for operators.
const ApiInfoDialog = lazy(() =>
  import('../features/ApiInfoDialog').then((m) => ({ default: m.ApiInfoDialog })),
);
const ApiOpeningDialog = lazy(() =>
  import('../features/ApiOpeningDialog').then((m) => ({ default: m.ApiOpeningDialog })),
);
const CompanySwitcher = lazy(() =>
  import('../features/support-view/SupportView').then((m) => ({ default: m.CompanySwitcher })),
);

/** Keeps the session's wxCount live while mounted (customers only: see Navbar). */
function WxCountLive() {
  useWxCountLive();
  return null;
}

/** The user's picture, or the first character of the name: drawn like antd's circle Avatar, without it. */
function UserAvatar({
  size,
  src,
  text,
  ...rest
}: {
  size: number;
  src: string | null | undefined;
  text: string;
  'data-testid'?: string;
}) {
  return (
    <span className="user-avatar" style={{ width: size, height: size, lineHeight: `${size}px` }} {...rest}>
      {src ? <img src={src} alt="" /> : text}
    </span>
  );
}

function wxCountText(count: number | null): string {
  return `在线微信 ${count ?? '—'}`;
}

export function Navbar() {
  const { sidebarOpened, device } = useApp();
  const { user, name, avatar: ownAvatar, avatarText, introduction, wxCount } = useSession();
  const avatar = useShowcaseAvatar() ?? ownAvatar;
  const showSettings = useSettings((s) => s.showSettings);
  const navigate = useNavigate();
  const logout = useLogout();
  const [dialog, setDialog] = useState<'apiInfo' | 'apiOpening' | null>(null);
  // A dialog stays mounted once opened, so it can animate out.
  const [opened, setOpened] = useState<{ apiInfo?: true; apiOpening?: true }>({});
  const openDialog = (key: 'apiInfo' | 'apiOpening') => {
    setOpened((o) => ({ ...o, [key]: true }));
    setDialog(key);
  };
  const mobile = device === 'mobile';
  const customer = Boolean(user && !isOperator(user));
  const operator = Boolean(user && isOperator(user));

  const avatarItems: MenuProps['items'] = [
    { key: 'console', icon: <UserOutlined />, label: '控制台' },
    ...(customer ? [{ key: 'wechat', icon: <WechatOutlined />, label: wxCountText(wxCount) }] : []),
    ...(operator && mobile ? [{ key: 'operator', icon: <ControlOutlined />, label: '运营管理' }] : []),
    ...(customer && mobile
      ? [
          { key: 'apiInfo', icon: <ApiOutlined />, label: 'API 信息' },
          { key: 'apiOpening', icon: <InfoCircleOutlined />, label: 'API 开通说明' },
          { key: 'buy', icon: <ShoppingCartOutlined />, label: '购买套餐' },
        ]
      : []),
    ...(showSettings ? [{ key: 'settings', icon: <SettingOutlined />, label: '布局设置' }] : []),
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: '退出登录' },
  ];

  const onAvatarClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'console') navigate('/userInfo/index');
    else if (key === 'wechat') navigate('/wechatList/index');
    else if (key === 'operator') navigate(OPERATOR_HOME);
    else if (key === 'buy') navigate('/purchaseRecords/index');
    else if (key === 'settings') openSettingsPanel();
    else if (key === 'apiInfo' || key === 'apiOpening') openDialog(key);
    else if (key === 'logout') void logout();
  };

  return (
    <div className="navbar">
      {customer ? <WxCountLive /> : null}
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
        {customer && !mobile ? (
          <Link
            to="/wechatList/index"
            className="wx-count"
            data-testid="wx-count"
            title="本公司此刻在线的微信账号数"
            aria-label={wxCountText(wxCount)}
          >
            <WechatOutlined /> <span className="nav-label">在线微信</span> <strong>{wxCount ?? '—'}</strong>
          </Link>
        ) : null}
        {operator ? (
          <>
            {mobile ? null : (
              <Link to={OPERATOR_HOME} className="nav-link" data-testid="nav-operator">
                <ControlOutlined /> <span className="nav-label">运营管理</span>
              </Link>
            )}
            <Suspense fallback={null}>
              <CompanySwitcher compact={mobile} />
            </Suspense>
          </>
        ) : null}
        {customer ? <RealNameBadge compact={mobile} /> : null}
        {mobile || !customer ? null : (
          <>
            <Button
              type="text"
              icon={<InfoCircleOutlined />}
              aria-label="开通说明"
              title="开通说明"
              onClick={() => openDialog('apiOpening')}
            >
              <span className="nav-label">开通说明</span>
            </Button>
            <Button
              type="text"
              icon={<ApiOutlined />}
              aria-label="API 信息"
              title="API 信息"
              onClick={() => openDialog('apiInfo')}
            >
              <span className="nav-label">API 信息</span>
            </Button>
          </>
        )}
        {customer ? <SupportPopover compact={mobile} /> : null}
        {mobile || !customer ? null : (
          <Link to="/purchaseRecords/index" className="buy-link">
            <ShoppingCartOutlined /> 购买
          </Link>
        )}
        <Dropdown
          menu={{ items: avatarItems, onClick: onAvatarClick }}
          trigger={['click']}
          placement="bottomRight"
          popupRender={(menu) => (
            <div className="avatar-popup">
              <div className="avatar-profile" data-testid="avatar-profile">
                <UserAvatar size={40} src={avatar} text={avatarText} />
                <div className="avatar-profile-text">
                  <strong>{name}</strong>
                  <span>{introduction}</span>
                </div>
              </div>
              {menu}
            </div>
          )}
        >
          <button type="button" className="avatar-button" aria-label="用户菜单" data-testid="avatar-menu">
            <UserAvatar size={30} src={avatar} text={avatarText} data-testid="avatar-image" />
            {mobile ? null : <span className="avatar-name">{name}</span>}
            <DownOutlined className="avatar-caret" />
          </button>
        </Dropdown>
      </div>
      {customer ? (
        <Suspense fallback={null}>
          {opened.apiInfo ? (
            <ApiInfoDialog open={dialog === 'apiInfo'} onClose={() => setDialog(null)} />
          ) : null}
          {opened.apiOpening ? (
            <ApiOpeningDialog open={dialog === 'apiOpening'} onClose={() => setDialog(null)} />
          ) : null}
        </Suspense>
      ) : null}
    </div>
  );
}
