import { ComingSoon } from '../../features/ComingSoon';

export default function OperatorPage() {
  return <ComingSoon description="实名审核、注册开关、注册用户与访客统计等运营功能即将上线。" />;
}
