import { ExclamationCircleFilled, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ShowcaseRole as RoleRow, ShowcaseRoute } from '@wxc/contract/calls/showcase';
import * as calls from '@wxc/contract/calls/showcase';
import { Button, Empty, Form, Input, type TableColumnsType, Tag, Tooltip, Tree } from 'antd';
import { useMemo, useState } from 'react';
import { showcaseCall } from '../../../api/showcase';
import { type ShowcaseNode, showcaseTree } from '../../../app/showcase-routes';
import { Card } from '../../../components/Card';
import { useFeedback } from '../../../components/feedback';
import { ModalForm } from '../../../components/ModalForm';
import { ListView } from '../../../components/PagedList';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { checkedKeysFor, type RouteTreeNode, routesFromChecked, toTreeData } from './role-tree';
import '../showcase.css';
import './permission.css';

const BUILTIN: readonly string[] = calls.SHOWCASE_BUILTIN_ROLES;
const ROLES_KEY = ['showcase', 'roles'] as const;

/** The console's Chinese titles of the showcase routes, by full path (the tree shows these). */
function titlesOf(nodes: readonly ShowcaseNode[], out: Record<string, string> = {}): Record<string, string> {
  for (const n of nodes) {
    out[n.path === '/example/edit/:id' ? '/example/edit/:id(\\d+)' : n.path] = n.title;
    if (n.children) titlesOf(n.children, out);
  }
  return out;
}
const TITLES = { ...titlesOf(showcaseTree), '/dashboard': '用户中心' };

interface RoleForm {
  name: string;
  description: string;
  keys: string[];
}

type Dialog = { kind: 'create' } | { kind: 'edit'; role: RoleRow };

/** /permission/role (角色权限, admin only): the company's showcase roles and their route trees. */
export default function PermissionRole() {
  const { modal, message } = useFeedback();
  const client = useQueryClient();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [pending, setPending] = useState(false);
  const routes = useQuery({
    queryKey: ['showcase', 'routes'],
    queryFn: ({ signal }) => showcaseCall(calls.routes, {}, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const roles = useQuery({
    queryKey: ROLES_KEY,
    queryFn: ({ signal }) => showcaseCall(calls.roles, {}, { signal }),
  });
  const tree = useMemo(() => toTreeData(routes.data ?? [], TITLES), [routes.data]);
  const refresh = () => client.invalidateQueries({ queryKey: ROLES_KEY });

  const save = async (values: RoleForm) => {
    if (!routes.data || !dialog) return;
    const body = {
      name: values.name.trim(),
      description: (values.description ?? '').trim(),
      routes: routesFromChecked(routes.data, values.keys ?? []),
    };
    setPending(true);
    try {
      if (dialog.kind === 'create') {
        const { key } = await showcaseCall(calls.roleCreate, body);
        void message.success(`角色「${body.name}」已创建（key ${key}）`);
      } else {
        await showcaseCall(calls.roleUpdate, body, { params: { key: dialog.role.key } });
        void message.success(`角色「${body.name}」已保存`);
      }
      setDialog(null);
      await refresh();
    } catch {
      // the request layer has shown why
    } finally {
      setPending(false);
    }
  };

  const remove = (role: RoleRow) =>
    modal.confirm({
      title: `删除角色「${role.name}」？`,
      icon: <ExclamationCircleFilled />,
      content: '删除后不可恢复。',
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await showcaseCall(calls.roleDelete, {}, { params: { key: role.key } });
          void message.success(`角色「${role.name}」已删除`);
          await refresh();
        } catch {
          // the request layer has shown why
        }
      },
    });

  const actions = (role: RoleRow) => (
    <span className="table-actions">
      <Button type="link" size="small" onClick={() => setDialog({ kind: 'edit', role })}>
        编辑
      </Button>
      {BUILTIN.includes(role.key) ? (
        <Tooltip title="内置角色不能删除">
          <Button type="link" size="small" danger disabled>
            删除
          </Button>
        </Tooltip>
      ) : (
        <Button type="link" size="small" danger onClick={() => remove(role)}>
          删除
        </Button>
      )}
    </span>
  );

  const columns: TableColumnsType<RoleRow> = [
    { title: '角色 Key', dataIndex: 'key', width: 120, render: (k: string) => <Tag>{k}</Tag> },
    { title: '角色名', dataIndex: 'name', width: 180 },
    { title: '说明', dataIndex: 'description', ellipsis: true },
    { title: '操作', key: 'actions', width: 150, render: (_, r) => actions(r) },
  ];

  const initial = (): Partial<RoleForm> =>
    dialog?.kind === 'edit'
      ? {
          name: dialog.role.name,
          description: dialog.role.description,
          keys: checkedKeysFor(tree, dialog.role.routes as ShowcaseRoute[]),
        }
      : { name: '', description: '', keys: [] };

  return (
    <div className="page showcase-page" data-testid="permission-role">
      <PageHeader
        subtitle="本公司的模板示例角色：每个角色可访问的路由（勾选路由表）"
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={!routes.data}
            onClick={() => setDialog({ kind: 'create' })}
          >
            新建角色
          </Button>
        }
      />
      <Card title="角色列表">
        <QueryState query={roles}>
          {(rows) => (
            <ListView<RoleRow>
              rows={rows}
              columns={columns}
              rowKey="key"
              label="角色列表"
              scrollX={640}
              empty={<Empty description="还没有角色" />}
              cardProps={(r) => ({ testId: `role-card-${r.key}` })}
              card={(r) => (
                <>
                  <div className="list-card-head">
                    <strong>{r.name}</strong> <Tag>{r.key}</Tag>
                  </div>
                  {r.description ? <p className="showcase-muted">{r.description}</p> : null}
                  {actions(r)}
                </>
              )}
            />
          )}
        </QueryState>
      </Card>
      {dialog ? (
        <ModalForm<RoleForm>
          title={dialog.kind === 'create' ? '新建角色' : `编辑角色「${dialog.role.name}」`}
          initialValues={initial()}
          pending={pending}
          onSubmit={(v) => void save(v)}
          onClose={() => setDialog(null)}
        >
          <Form.Item
            label="角色名"
            name="name"
            rules={[
              { required: true, whitespace: true, message: '请输入角色名' },
              { max: 30, message: '角色名不能超过 30 个字符' },
            ]}
          >
            <Input placeholder="例如：运营" maxLength={30} showCount />
          </Form.Item>
          <Form.Item
            label="说明"
            name="description"
            rules={[{ max: 200, message: '说明不能超过 200 个字符' }]}
          >
            <Input.TextArea rows={2} placeholder="这个角色做什么（可不填）" maxLength={200} showCount />
          </Form.Item>
          <Form.Item label="可访问的路由" name="keys" valuePropName="checkedKeys" trigger="onCheck">
            <RouteTree tree={tree} />
          </Form.Item>
        </ModalForm>
      ) : null}
    </div>
  );
}

/** The route table as a checkbox tree (value: the checked keys). */
function RouteTree({
  tree,
  checkedKeys,
  onCheck,
}: {
  tree: RouteTreeNode[];
  checkedKeys?: string[];
  onCheck?: (keys: string[]) => void;
}) {
  return (
    <div className="role-tree-box" data-testid="role-tree">
      <Tree
        checkable
        selectable={false}
        defaultExpandAll
        treeData={tree}
        checkedKeys={checkedKeys ?? []}
        onCheck={(keys) => onCheck?.((Array.isArray(keys) ? keys : keys.checked).map(String))}
      />
    </div>
  );
}
