import { ComingSoon } from '../../features/ComingSoon';

export default function MyApiPage() {
  return <ComingSoon description="接口地址、接入文档与 API 账号信息即将上线。" />;
}
