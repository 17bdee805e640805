import { Radio, Tag } from 'antd';
import { useSession } from '../../../stores/session';
import {
  SHOWCASE_ROLES,
  type ShowcaseRole,
  setShowcaseRole,
  showcaseRoleFor,
  useShowcase,
} from '../../../stores/showcase';

export const ROLE_LABELS: Record<ShowcaseRole, string> = {
  admin: '管理员 admin',
  editor: '编辑 editor',
  visitor: '访客 visitor',
};

/** The showcase role now: the one chosen on these pages, or the one the product role gives. */
export function useShowcaseRole(): ShowcaseRole {
  const roles = useSession((s) => s.roles);
  const override = useShowcase((s) => s.override);
  return showcaseRoleFor(roles, override);
}

/**
 * The template's SwitchRoles: the current showcase role and buttons to switch it. The showcase
 * menu and the showcase routes' guard follow the store at once; nothing outside the showcase changes.
 */
export function SwitchRoles() {
  const role = useShowcaseRole();
  return (
    <div className="showcase-switch-roles" data-testid="switch-roles">
      <p>
        当前角色：
        <Tag color="blue" data-testid="current-role">
          {role}
        </Tag>
      </p>
      <p className="showcase-muted">
        切换角色后，左侧「模板示例」菜单立即按角色重建（只影响模板示例，不影响控制台本身的权限）。
      </p>
      <Radio.Group
        optionType="button"
        buttonStyle="solid"
        value={role}
        aria-label="切换模板示例角色"
        onChange={(e) => setShowcaseRole(e.target.value as ShowcaseRole)}
        options={SHOWCASE_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
      />
    </div>
  );
}
