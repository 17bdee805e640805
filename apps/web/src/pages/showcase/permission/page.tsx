import { Alert } from 'antd';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { SwitchRoles } from './SwitchRoles';
import '../showcase.css';
import './permission.css';

/** /permission/page (页面权限, admin only): switching the showcase role rebuilds the menu live. */
export default function PermissionPage() {
  return (
    <div className="page showcase-page" data-testid="permission-page">
      <PageHeader subtitle="页面级权限：菜单和可打开的页面由当前角色决定" />
      <Card title="切换角色">
        <SwitchRoles />
      </Card>
      <Card title="说明">
        <Alert
          type="info"
          showIcon
          title="本页只允许 admin 打开。切换为 editor 或 visitor 后，「页面权限」「角色权限」从菜单中消失，再次打开它们会进入 401；visitor 连「权限测试页」下的受限页面都看不到。到「指令权限」页可以切换回来。"
        />
      </Card>
    </div>
  );
}
