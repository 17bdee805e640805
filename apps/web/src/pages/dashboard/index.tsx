import { ComingSoon } from '../../features/ComingSoon';

export default function DashboardPage() {
  return <ComingSoon description="账号概览、在线统计与消费记录即将在这里展示。" />;
}
