import * as authCalls from '@wxc/contract/calls/auth';
import { PASSWORD_MAX, PASSWORD_MIN } from '@wxc/contract/constants';
import { mobileField, passwordField, smsCodeField } from '@wxc/contract/fields';
import { type FormEvent, useMemo, useState } from 'react';
import { ApiError, call } from '../../api/client';
import { fieldError } from '../../utils/validate';
import { Banner, Icons, type Rules, TextField, useFields } from './kit';
import { SmsCodeFields, useSmsCode } from './sms';

const PASSWORD_HINT = `${PASSWORD_MIN}-${PASSWORD_MAX} 位，需含字母和数字`;

type ForgotValues = {
  companyAccount: string;
  captchaCode: string;
  verifyCode: string;
  password: string;
  checkPassword: string;
};

/** Forgot password: an SMS code to the registered number, then a new password. */
export function ForgotForm({
  initialAccount,
  onDone,
}: {
  initialAccount: string;
  onDone(account: string): void;
}) {
  const rules = useMemo<Rules<ForgotValues>>(
    () => ({
      companyAccount: (v) => fieldError(mobileField, v),
      verifyCode: (v) => fieldError(smsCodeField, v),
      password: (v) => fieldError(passwordField, v),
      checkPassword: (v, all) =>
        !v ? '请再次输入密码' : v !== all.password ? '两次输入的密码不一致' : undefined,
    }),
    [],
  );
  const form = useFields<ForgotValues>(
    {
      companyAccount: /^\d{11}$/.test(initialAccount) ? initialAccount : '',
      captchaCode: '',
      verifyCode: '',
      password: '',
      checkPassword: '',
    },
    rules,
  );
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState('');
  const sms = useSmsCode(
    form,
    (phone, c) => call(authCalls.sendSms, { phone, scene: 'resetPassword', ...c }, { quiet: true }),
    setServerError,
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.validate()) return;
    setSubmitting(true);
    setServerError('');
    try {
      const v = form.values;
      await call(
        authCalls.resetPassword,
        {
          companyAccount: v.companyAccount.trim(),
          verifyCode: v.verifyCode.trim(),
          password: v.password,
          checkPassword: v.checkPassword,
        },
        { quiet: true },
      );
      onDone(v.companyAccount.trim());
    } catch (error) {
      setServerError(error instanceof ApiError ? error.message : '重置失败，请稍后重试');
      setSubmitting(false);
    }
  }

  return (
    <form className="auth-form" onSubmit={submit} noValidate aria-label="找回密码">
      {serverError ? <Banner kind="error">{serverError}</Banner> : null}
      <TextField
        label="注册手机号"
        icon={Icons.phone}
        placeholder="请输入注册时使用的手机号"
        autoComplete="tel"
        inputMode="numeric"
        maxLength={11}
        {...form.field('companyAccount')}
      />
      <SmsCodeFields form={form} sms={sms} />
      <TextField
        label="新密码"
        type="password"
        icon={Icons.lock}
        placeholder={PASSWORD_HINT}
        autoComplete="new-password"
        {...form.field('password')}
      />
      <TextField
        label="确认新密码"
        type="password"
        icon={Icons.lock}
        placeholder="请再次输入新密码"
        autoComplete="new-password"
        {...form.field('checkPassword')}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
        {submitting ? '提交中…' : '重置密码'}
      </button>
    </form>
  );
}
