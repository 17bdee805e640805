import { EditOutlined, LockOutlined, MobileOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import * as authCalls from '@wxc/contract/calls/auth';
import { REAL_NAME_LABELS, type UserInfo } from '@wxc/contract/domain';
import { companyNameField, userNameField } from '@wxc/contract/fields';
import { Button, Card, Descriptions, Form, Input, Modal, Skeleton, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { useFeedback } from '../../components/feedback';
import { setUser, useSession } from '../../stores/session';
import { zodRule } from '../../utils/form-rules';
import { accountTypeLabel, realNameStatus } from '../../utils/labels';
import './user-info.css';
import { PageHeader } from '../../components/PageHeader';

type EditKind = 'companyName' | 'userName';

const EDITS = {
  companyName: {
    title: '修改公司名称',
    label: '公司名称',
    schema: companyNameField,
    call: authCalls.updateCompanyInfo,
  },
  userName: { title: '修改用户名', label: '用户名', schema: userNameField, call: authCalls.modUserName },
} as const;

function EditDialog({ kind, user, onClose }: { kind: EditKind; user: UserInfo; onClose(): void }) {
  const { message } = useFeedback();
  const [form] = Form.useForm<{ value: string }>();
  const edit = EDITS[kind];
  const mutation = useMutation({
    mutationFn: (value: string) =>
      kind === 'companyName'
        ? call(authCalls.updateCompanyInfo, { companyName: value })
        : call(authCalls.modUserName, { userName: value }),
    onSuccess: (info) => {
      setUser(info);
      void message.success(`${edit.label}已更新`);
      onClose();
    },
  });
  return (
    <Modal
      open
      title={edit.title}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="保存"
      confirmLoading={mutation.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ value: user[kind] }}
        onFinish={(v) => mutation.mutate(v.value.trim())}
      >
        <Form.Item name="value" label={edit.label} rules={[zodRule(edit.schema)]}>
          <Input autoFocus maxLength={kind === 'companyName' ? 50 : 30} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

const REAL_NAME_COLORS = { 0: 'warning', 1: 'success', 2: 'processing', 3: 'error' } as const;

/** /userInfo/index (控制台): the company's account, editable names, security entries. */
export default function UserInfoPage() {
  const user = useSession((s) => s.user);
  const [editing, setEditing] = useState<EditKind | null>(null);
  // Fresh from the service each visit; the store (and so the top bar) follows.
  const query = useQuery({
    queryKey: ['userInfo'],
    queryFn: ({ signal }) => call(authCalls.refreshLoginInfo, {}, { signal }),
    staleTime: 0,
  });
  useEffect(() => {
    if (query.data) setUser(query.data);
  }, [query.data]);

  if (!user) {
    return (
      <div className="page user-info">
        <PageHeader subtitle="公司账号信息与安全设置" />
        <Skeleton active />
      </div>
    );
  }
  const status = realNameStatus(user.realNameUser);

  return (
    <div className="page user-info">
      <PageHeader subtitle="公司账号信息与安全设置" />
      <Card title="账号信息">
        <Descriptions
          column={{ xs: 1, sm: 1, md: 2 }}
          bordered
          size="middle"
          items={[
            {
              key: 'companyName',
              label: '公司名称',
              children: (
                <span className="editable">
                  <span data-testid="company-name">{user.companyName}</span>
                  <Button
                    type="link"
                    size="small"
                    icon={<EditOutlined />}
                    onClick={() => setEditing('companyName')}
                  >
                    修改
                  </Button>
                </span>
              ),
            },
            {
              key: 'userName',
              label: '用户名',
              children: (
                <span className="editable">
                  <span data-testid="user-name">{user.userName || '未设置'}</span>
                  <Button
                    type="link"
                    size="small"
                    icon={<EditOutlined />}
                    onClick={() => setEditing('userName')}
                  >
                    修改
                  </Button>
                </span>
              ),
            },
            { key: 'account', label: '登录账号', children: user.companyAccount },
            { key: 'accountType', label: '接入方式', children: accountTypeLabel(user.accountType) },
            {
              key: 'realName',
              label: '实名认证',
              children: <Tag color={REAL_NAME_COLORS[status]}>{REAL_NAME_LABELS[status]}</Tag>,
            },
            {
              key: 'serverFlag',
              label: '服务版本',
              children: user.serverFlag === 'formal' ? '正式版' : '测试版',
            },
          ]}
        />
      </Card>
      <Card title="安全设置" className="security-card">
        <div className="security-item">
          <LockOutlined className="security-icon" />
          <div className="security-text">
            <strong>登录密码</strong>
            <span className="muted">建议定期更换密码，密码需同时包含字母和数字</span>
          </div>
          <Link to="/userInfo/resetPass">
            <Button>修改密码</Button>
          </Link>
        </div>
        <div className="security-item">
          <MobileOutlined className="security-icon" />
          <div className="security-text">
            <strong>绑定手机号</strong>
            <span className="muted">当前手机号 {user.companyAccount}，也是您的登录账号</span>
          </div>
          <Link to="/userInfo/resetPhone">
            <Button>更换手机号</Button>
          </Link>
        </div>
      </Card>
      {editing ? <EditDialog kind={editing} user={user} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}
