import { ComingSoon } from '../../features/ComingSoon';

export default function WechatListPage() {
  return <ComingSoon description="已登录微信账号的管理、登录记录与设备记录即将上线。" />;
}
