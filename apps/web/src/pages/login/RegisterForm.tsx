import * as authCalls from '@wxc/contract/calls/auth';
import { PASSWORD_MAX, PASSWORD_MIN } from '@wxc/contract/constants';
import { ACCOUNT_TYPE_LABELS, type AccountTypeValue } from '@wxc/contract/domain';
import { companyNameField, mobileField, passwordField, smsCodeField } from '@wxc/contract/fields';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { ApiError, call } from '../../api/client';
import { signIn } from '../../stores/session';
import { fieldError } from '../../utils/validate';
import { Banner, Icons, type Rules, TextField, useFields } from './kit';
import { SmsCodeFields, useSmsCode } from './sms';

const PASSWORD_HINT = `${PASSWORD_MIN}-${PASSWORD_MAX} 位，需含字母和数字`;

type RegisterValues = {
  extAccountType: number;
  companyName: string;
  companyAccount: string;
  password: string;
  checkPassword: string;
  captchaCode: string;
  verifyCode: string;
  readMsg: boolean;
};

const ACCOUNT_TYPES = Object.entries(ACCOUNT_TYPE_LABELS).map(([value, label]) => ({
  value: Number(value) as AccountTypeValue,
  label,
}));

export function RegisterForm({ onSignedIn }: { onSignedIn(): void }) {
  const rules = useMemo<Rules<RegisterValues>>(
    () => ({
      companyName: (v) => fieldError(companyNameField, v),
      companyAccount: (v) => fieldError(mobileField, v),
      password: (v) => fieldError(passwordField, v),
      checkPassword: (v, all) =>
        !v ? '请再次输入密码' : v !== all.password ? '两次输入的密码不一致' : undefined,
      verifyCode: (v) => fieldError(smsCodeField, v),
      readMsg: (v) => (v === true ? undefined : '请阅读并同意服务协议'),
    }),
    [],
  );
  const form = useFields<RegisterValues>(
    {
      extAccountType: 1,
      companyName: '',
      companyAccount: '',
      password: '',
      checkPassword: '',
      captchaCode: '',
      verifyCode: '',
      readMsg: false,
    },
    rules,
  );
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState('');
  const sms = useSmsCode(
    form,
    (phone, c) => call(authCalls.sendRegisterSms, { phone, ...c }, { quiet: true }),
    setServerError,
  );
  const [open, setOpen] = useState<boolean | null>(null);

  useEffect(() => {
    call(authCalls.isAutoRegiste, {}, { quiet: true })
      .then((r) => setOpen(r.open))
      .catch(() => setOpen(true)); // the service has the last word on submit
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.validate()) return;
    setSubmitting(true);
    setServerError('');
    try {
      const v = form.values;
      const { token, userInfo } = await call(
        authCalls.register,
        {
          extAccountType: v.extAccountType as AccountTypeValue,
          companyName: v.companyName.trim(),
          companyAccount: v.companyAccount.trim(),
          password: v.password,
          checkPassword: v.checkPassword,
          verifyCode: v.verifyCode.trim(),
          readMsg: true,
        },
        { quiet: true },
      );
      signIn(token, userInfo);
      onSignedIn();
    } catch (error) {
      setServerError(error instanceof ApiError ? error.message : '注册失败，请稍后重试');
      setSubmitting(false);
    }
  }

  if (open === false) {
    return (
      <div className="auth-form">
        <Banner kind="info">暂未开放自助注册，如需开通账号请联系客服。</Banner>
      </div>
    );
  }

  return (
    <form ref={form.formRef} className="auth-form" onSubmit={submit} noValidate aria-label="注册">
      {serverError ? <Banner kind="error">{serverError}</Banner> : null}
      <fieldset className="field radio-group">
        <legend className="field-label">接入方式</legend>
        <div className="radio-options">
          {ACCOUNT_TYPES.map((t) => (
            <label
              key={t.value}
              className={`radio${form.values.extAccountType === t.value ? ' radio-checked' : ''}`}
            >
              <input
                type="radio"
                name="extAccountType"
                value={t.value}
                checked={form.values.extAccountType === t.value}
                onChange={() => form.set('extAccountType', t.value)}
              />
              {t.label}
            </label>
          ))}
        </div>
      </fieldset>
      <TextField
        label="公司名称"
        icon={Icons.building}
        placeholder="请输入公司名称"
        autoComplete="organization"
        {...form.field('companyName')}
      />
      <TextField
        label="手机号（登录账号）"
        icon={Icons.phone}
        placeholder="请输入手机号，将作为登录账号"
        autoComplete="tel"
        inputMode="numeric"
        maxLength={11}
        {...form.field('companyAccount')}
      />
      <TextField
        label="密码"
        type="password"
        icon={Icons.lock}
        placeholder={PASSWORD_HINT}
        autoComplete="new-password"
        {...form.field('password')}
      />
      <TextField
        label="确认密码"
        type="password"
        icon={Icons.lock}
        placeholder="请再次输入密码"
        autoComplete="new-password"
        {...form.field('checkPassword')}
      />
      <SmsCodeFields form={form} sms={sms} />
      <div className={`field checkbox-field${form.errors.readMsg ? ' field-error' : ''}`}>
        <label className="checkbox">
          <input
            type="checkbox"
            name="readMsg"
            checked={form.values.readMsg}
            onChange={(e) => form.set('readMsg', e.target.checked)}
          />
          <span>
            我已阅读并同意
            <a href="/agreement" target="_blank" rel="noopener">
              《服务协议》
            </a>
          </span>
        </label>
        <div className="field-message" role={form.errors.readMsg ? 'alert' : undefined}>
          {form.errors.readMsg ?? ''}
        </div>
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={submitting || open === null}>
        {submitting ? '注册中…' : '注册并登录'}
      </button>
    </form>
  );
}
