import { ComingSoon } from '../../features/ComingSoon';

export default function AccountListPage() {
  return <ComingSoon description="子账号的创建、额度分配与回收即将上线。" />;
}
