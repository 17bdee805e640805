import * as authCalls from '@wxc/contract/calls/auth';
import { PASSWORD_MAX, PASSWORD_MIN } from '@wxc/contract/constants';
import { captchaCodeField, mobileField, passwordField, smsCodeField } from '@wxc/contract/fields';
import { type FormEvent, useMemo, useState } from 'react';
import { ApiError, call } from '../../api/client';
import { CaptchaImage, useCaptcha } from '../../features/captcha';
import { fieldError } from '../../utils/validate';
import { Banner, Icons, type Rules, TextField, useFields } from './kit';
import { maskPhone, SmsButton, useCountdown } from './sms';

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
  const captcha = useCaptcha();
  const countdown = useCountdown();
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState('');
  const [sentTo, setSentTo] = useState('');

  async function sendCode() {
    const phoneError = fieldError(mobileField, form.values.companyAccount);
    const captchaError = fieldError(captchaCodeField, form.values.captchaCode);
    form.setError('companyAccount', phoneError);
    form.setError('captchaCode', captchaError);
    if (phoneError || captchaError) return;
    setSending(true);
    setServerError('');
    try {
      const phone = form.values.companyAccount.trim();
      const sent = await call(
        authCalls.sendSms,
        { phone, scene: 'resetPassword', captchaId: captcha.id, captchaCode: form.values.captchaCode.trim() },
        { quiet: true },
      );
      countdown.start(sent.resendAfter);
      setSentTo(phone);
    } catch (error) {
      setServerError(error instanceof ApiError ? error.message : '验证码发送失败，请稍后重试');
    } finally {
      form.set('captchaCode', '');
      captcha.refresh();
      setSending(false);
    }
  }

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
        name="companyAccount"
        icon={Icons.phone}
        placeholder="请输入注册时使用的手机号"
        autoComplete="tel"
        inputMode="numeric"
        maxLength={11}
        value={form.values.companyAccount}
        error={form.errors.companyAccount}
        onValue={(v) => form.set('companyAccount', v)}
        onBlur={() => form.blur('companyAccount')}
      />
      <TextField
        label="图形验证码"
        name="captchaCode"
        icon={Icons.shield}
        placeholder="获取短信前请先输入"
        autoComplete="off"
        maxLength={8}
        value={form.values.captchaCode}
        error={form.errors.captchaCode}
        onValue={(v) => form.set('captchaCode', v)}
        addon={<CaptchaImage captcha={captcha} />}
      />
      <TextField
        label="短信验证码"
        name="verifyCode"
        icon={Icons.message}
        placeholder="请输入 6 位短信验证码"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        value={form.values.verifyCode}
        error={form.errors.verifyCode}
        onValue={(v) => form.set('verifyCode', v)}
        onBlur={() => form.blur('verifyCode')}
        addon={<SmsButton left={countdown.left} sending={sending} onSend={sendCode} />}
      />
      {sentTo ? <p className="field-hint">验证码已发送至 {maskPhone(sentTo)}，5 分钟内有效。</p> : null}
      <TextField
        label="新密码"
        name="password"
        type="password"
        icon={Icons.lock}
        placeholder={PASSWORD_HINT}
        autoComplete="new-password"
        value={form.values.password}
        error={form.errors.password}
        onValue={(v) => form.set('password', v)}
        onBlur={() => form.blur('password')}
      />
      <TextField
        label="确认新密码"
        name="checkPassword"
        type="password"
        icon={Icons.lock}
        placeholder="请再次输入新密码"
        autoComplete="new-password"
        value={form.values.checkPassword}
        error={form.errors.checkPassword}
        onValue={(v) => form.set('checkPassword', v)}
        onBlur={() => form.blur('checkPassword')}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
        {submitting ? '提交中…' : '重置密码'}
      </button>
    </form>
  );
}
