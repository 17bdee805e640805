import { useMutation } from '@tanstack/react-query';
import * as authCalls from '@wxc/contract/calls/auth';
import { captchaCodeField, mobileField, smsCodeField } from '@wxc/contract/fields';
import { Alert, Button, Card, Form, Input } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { call } from '../../../api/client';
import { useFeedback } from '../../../components/feedback';
import { PageHeader } from '../../../components/PageHeader';
import { CaptchaImage, useCaptcha } from '../../../features/captcha';
import { maskPhone, useCountdown } from '../../../features/countdown';
import { setUser, useSession } from '../../../stores/session';
import { zodRule } from '../../../utils/form-rules';
import { fieldError } from '../../../utils/validate';
import '../user-info.css';

interface Values {
  phone: string;
  captchaCode: string;
  verifyCode: string;
}

/**
 * /userInfo/resetPhone: a new number receives an SMS code (scene changePhone, captcha-guarded); the
 * code confirms the change, and the new number becomes the login account.
 */
export default function ResetPhonePage() {
  const [form] = Form.useForm<Values>();
  const { message } = useFeedback();
  const navigate = useNavigate();
  const current = useSession((s) => s.user?.companyAccount ?? '');
  const captcha = useCaptcha();
  const countdown = useCountdown();
  const [sentTo, setSentTo] = useState('');

  const send = useMutation({
    mutationFn: async (v: { phone: string; captchaCode: string }) =>
      call(authCalls.sendSms, {
        phone: v.phone,
        scene: 'changePhone',
        captchaId: await captcha.settled(),
        captchaCode: v.captchaCode,
      }),
    onSuccess: (sent, v) => {
      countdown.start(sent.resendAfter);
      setSentTo(v.phone);
      void message.success(`验证码已发送至 ${maskPhone(v.phone)}`);
    },
    onSettled: () => {
      // Single-use captcha: a new one for the next send.
      form.setFieldValue('captchaCode', '');
      captcha.refresh();
    },
  });

  const change = useMutation({
    mutationFn: (v: Values) => call(authCalls.changePhone, { phone: v.phone, verifyCode: v.verifyCode }),
    onSuccess: (info) => {
      setUser(info);
      form.resetFields();
      setSentTo('');
      void message.success(`手机号已更换为 ${info.companyAccount}，请使用新手机号登录`);
      navigate('/userInfo/index');
    },
  });

  const sendCode = async () => {
    try {
      const v = await form.validateFields(['phone']);
      const captchaCode = String(form.getFieldValue('captchaCode') ?? '').trim();
      const captchaError = fieldError(captchaCodeField, captchaCode);
      form.setFields([{ name: 'captchaCode', errors: captchaError ? [captchaError] : [] }]);
      if (v.phone.trim() === current) {
        form.setFields([{ name: 'phone', errors: ['新手机号不能与当前手机号相同'] }]);
        return;
      }
      if (captchaError) return;
      send.mutate({ phone: v.phone.trim(), captchaCode });
    } catch {
      // the form shows what is missing
    }
  };

  return (
    <div className="page">
      <PageHeader subtitle="手机号也是您的登录账号，更换后请用新手机号登录" />
      <Card>
        <Alert
          type="info"
          showIcon
          className="form-alert"
          title={`当前手机号 ${current}。更换后新手机号即为登录账号，其他设备上的登录将失效。`}
        />
        <Form<Values>
          form={form}
          layout="vertical"
          className="user-form"
          requiredMark={false}
          onFinish={(v) => change.mutate({ ...v, phone: v.phone.trim(), verifyCode: v.verifyCode.trim() })}
        >
          <Form.Item name="phone" label="新手机号" rules={[zodRule(mobileField)]}>
            <Input inputMode="numeric" maxLength={11} placeholder="请输入新的手机号" autoComplete="tel" />
          </Form.Item>
          <Form.Item label="图形验证码" required>
            <div className="captcha-row">
              <Form.Item name="captchaCode" noStyle>
                <Input placeholder="发送短信前请先输入" maxLength={8} autoComplete="off" />
              </Form.Item>
              <CaptchaImage captcha={captcha} />
            </div>
          </Form.Item>
          <Form.Item
            label="短信验证码"
            extra={sentTo ? `验证码已发送至 ${maskPhone(sentTo)}，5 分钟内有效` : undefined}
            required
          >
            <div className="captcha-row">
              <Form.Item name="verifyCode" noStyle rules={[zodRule(smsCodeField)]}>
                <Input
                  inputMode="numeric"
                  maxLength={6}
                  placeholder="请输入 6 位短信验证码"
                  autoComplete="one-time-code"
                />
              </Form.Item>
              <Button
                onClick={sendCode}
                disabled={countdown.left > 0}
                loading={send.isPending}
                className="sms-send"
              >
                {countdown.left > 0 ? `${countdown.left} 秒后重发` : '获取验证码'}
              </Button>
            </div>
          </Form.Item>
          <Form.Item>
            <div className="form-actions">
              <Button type="primary" htmlType="submit" loading={change.isPending}>
                确认更换
              </Button>
              <Button onClick={() => navigate('/userInfo/index')}>返回</Button>
            </div>
          </Form.Item>
        </Form>
      </Card>
    </div>
  );
}
