import { Alert, Button, Space, Tag } from 'antd';
import { Access } from '../../../components/Access';
import { Card } from '../../../components/Card';
import { PageHeader } from '../../../components/PageHeader';
import { SwitchRoles, useShowcaseRole } from './SwitchRoles';
import '../showcase.css';
import './permission.css';

const CASES: { roles: string[]; text: string }[] = [
  { roles: ['admin'], text: '只有 admin 能看到这一行' },
  { roles: ['editor'], text: '只有 editor 能看到这一行' },
  { roles: ['admin', 'editor'], text: 'admin 和 editor 都能看到这一行' },
];

/** /permission/directive (指令权限): elements shown by role with <Access>. */
export default function PermissionDirective() {
  const role = useShowcaseRole();
  return (
    <div className="page showcase-page" data-testid="permission-directive">
      <PageHeader subtitle="元素级权限：同一页面上的内容按角色显示或隐藏" />
      <Card title="切换角色">
        <SwitchRoles />
      </Card>
      <Card title="<Access roles={[…]}>">
        <ul className="access-cases">
          {CASES.map((c) => (
            <Access key={c.text} roles={c.roles} held={role}>
              <li data-testid={`access-${c.roles.join('-')}`}>
                <Space wrap>
                  {c.roles.map((r) => (
                    <Tag key={r}>{r}</Tag>
                  ))}
                  <span>{c.text}</span>
                </Space>
              </li>
            </Access>
          ))}
        </ul>
        <Access
          roles={['admin', 'editor']}
          held={role}
          fallback={<Alert type="warning" showIcon title="visitor 看不到上面任何一行，也看不到操作按钮" />}
        >
          <Space wrap>
            <Access roles={['admin']} held={role}>
              <Button type="primary">管理员操作</Button>
            </Access>
            <Button>编辑操作</Button>
          </Space>
        </Access>
      </Card>
    </div>
  );
}
