import { ComingSoon } from '../../features/ComingSoon';

export default function MoniyanshiPage() {
  return <ComingSoon description="扫码登录与消息收发的模拟演示即将上线。" />;
}
