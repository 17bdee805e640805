import { ComingSoon } from '../../features/ComingSoon';

export default function OnlineTestPage() {
  return <ComingSoon description="在线调用接口、查看请求与返回的功能即将上线。" />;
}
