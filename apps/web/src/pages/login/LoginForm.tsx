import * as authCalls from '@wxc/contract/calls/auth';
import { captchaCodeField, loginAccountField, loginPasswordField } from '@wxc/contract/fields';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { ApiError, call } from '../../api/client';
import { CaptchaImage, useCaptcha } from '../../features/captcha';
import { signIn } from '../../stores/session';
import { fieldError } from '../../utils/validate';
import { Banner, Icons, type Rules, TextField, useFields } from './kit';

type LoginValues = { companyAccount: string; password: string; captchaCode: string };

export function LoginForm({
  initialAccount,
  notice,
  alert,
  onSignedIn,
  onForgot,
}: {
  initialAccount: string;
  notice?: string | undefined;
  /** Why the console sent us here (shown until a sign-in attempt says more). */
  alert?: string | undefined;
  onSignedIn(): void;
  onForgot(account: string): void;
}) {
  const rules = useMemo<Rules<LoginValues>>(
    () => ({
      companyAccount: (v) => fieldError(loginAccountField, v),
      password: (v) => fieldError(loginPasswordField, v),
      captchaCode: (v) => fieldError(captchaCodeField, v),
    }),
    [],
  );
  const form = useFields<LoginValues>(
    { companyAccount: initialAccount, password: '', captchaCode: '' },
    rules,
  );
  const captcha = useCaptcha();
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState('');
  // Marks the moment React owns the form (after hydration of the prerendered page): tests and the
  // console-load benchmark wait for it before typing.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.validate()) return;
    setSubmitting(true);
    setServerError('');
    try {
      const { token, userInfo } = await call(
        authCalls.login,
        {
          companyAccount: form.values.companyAccount.trim(),
          password: form.values.password,
          captchaId: await captcha.settled(),
          captchaCode: form.values.captchaCode.trim(),
        },
        { quiet: true },
      );
      signIn(token, userInfo);
      onSignedIn();
    } catch (error) {
      setServerError(error instanceof ApiError ? error.message : '登录失败，请稍后重试');
      // Captchas are single-use: a failed attempt needs a new one.
      form.set('captchaCode', '');
      captcha.refresh();
      setSubmitting(false);
    }
  }

  return (
    <form
      ref={form.formRef}
      className="auth-form"
      onSubmit={submit}
      noValidate
      aria-label="登录"
      data-form-ready={ready ? '' : undefined}
    >
      {notice ? <Banner kind="success">{notice}</Banner> : null}
      {serverError ? <Banner kind="error">{serverError}</Banner> : null}
      {alert && !serverError ? <Banner kind="error">{alert}</Banner> : null}
      <TextField
        label="账号"
        icon={Icons.user}
        placeholder="请输入手机号 / 账号"
        autoComplete="username"
        {...form.field('companyAccount')}
      />
      <TextField
        label="密码"
        type="password"
        icon={Icons.lock}
        placeholder="请输入密码"
        autoComplete="current-password"
        {...form.field('password')}
      />
      <TextField
        label="图形验证码"
        icon={Icons.shield}
        placeholder="请输入右侧验证码"
        autoComplete="off"
        inputMode="text"
        maxLength={8}
        {...form.field('captchaCode')}
        addon={<CaptchaImage captcha={captcha} />}
      />
      <div className="auth-row">
        <span />
        <button type="button" className="link-button" onClick={() => onForgot(form.values.companyAccount)}>
          忘记密码？
        </button>
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
        {submitting ? '登录中…' : '登 录'}
      </button>
    </form>
  );
}
