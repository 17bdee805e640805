import { ComingSoon } from '../../features/ComingSoon';

export default function PurchaseRecordsPage() {
  return <ComingSoon description="套餐购买、续费与订单记录即将上线。" />;
}
