import { useMutation } from '@tanstack/react-query';
import * as authCalls from '@wxc/contract/calls/auth';
import { PASSWORD_RULE_TEXT } from '@wxc/contract/constants';
import { loginPasswordField, passwordField } from '@wxc/contract/fields';
import { Alert, Button, Card, Form, Input } from 'antd';
import { useNavigate } from 'react-router';
import { call } from '../../../api/client';
import { useFeedback } from '../../../components/feedback';
import { PageHeader } from '../../../components/PageHeader';
import { sameAs, zodRule } from '../../../utils/form-rules';
import '../user-info.css';

interface Values {
  oldPassword: string;
  password: string;
  checkPassword: string;
}

/** /userInfo/resetPass: change the password with the old one (resetPassword, logged-in form). */
export default function ResetPassPage() {
  const [form] = Form.useForm<Values>();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: (v: Values) => call(authCalls.resetPassword, v),
    onSuccess: () => {
      form.resetFields();
      void message.success('密码已修改，其他设备上的登录已失效');
    },
  });
  return (
    <div className="page">
      <PageHeader subtitle="修改后，其他设备上的登录将失效" />
      <Card>
        <Alert
          type="info"
          showIcon
          title={`${PASSWORD_RULE_TEXT}。修改后其他设备上的登录将失效。`}
          className="form-alert"
        />
        <Form<Values>
          form={form}
          layout="vertical"
          className="user-form"
          onFinish={(v) => mutation.mutate(v)}
          requiredMark={false}
        >
          <Form.Item name="oldPassword" label="原密码" rules={[zodRule(loginPasswordField)]}>
            <Input.Password autoComplete="current-password" placeholder="请输入原密码" />
          </Form.Item>
          <Form.Item
            name="password"
            label="新密码"
            dependencies={['oldPassword']}
            rules={[
              zodRule(passwordField),
              {
                validator: (_r, value) =>
                  value && value === form.getFieldValue('oldPassword')
                    ? Promise.reject(new Error('新密码不能与原密码相同'))
                    : Promise.resolve(),
              },
            ]}
          >
            <Input.Password autoComplete="new-password" placeholder={PASSWORD_RULE_TEXT} />
          </Form.Item>
          <Form.Item
            name="checkPassword"
            label="确认新密码"
            dependencies={['password']}
            rules={[sameAs(() => form.getFieldValue('password'))]}
          >
            <Input.Password autoComplete="new-password" placeholder="请再次输入新密码" />
          </Form.Item>
          <Form.Item>
            <div className="form-actions">
              <Button type="primary" htmlType="submit" loading={mutation.isPending}>
                确认修改
              </Button>
              <Button onClick={() => navigate('/userInfo/index')}>返回</Button>
            </div>
          </Form.Item>
        </Form>
      </Card>
    </div>
  );
}
