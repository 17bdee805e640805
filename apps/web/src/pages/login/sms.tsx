import { captchaCodeField, mobileField } from '@wxc/contract/fields';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { CaptchaImage, useCaptcha } from '../../features/captcha';
import { maskPhone, useCountdown } from '../../features/countdown';
import { fieldError } from '../../utils/validate';
import { type Fields, Icons, TextField, type Values } from './kit';

export { maskPhone, useCountdown };

export function SmsButton({ left, sending, onSend }: { left: number; sending: boolean; onSend(): void }) {
  return (
    <button type="button" className="btn sms-button" disabled={left > 0 || sending} onClick={onSend}>
      {sending ? '发送中…' : left > 0 ? `${left} 秒后重发` : '获取验证码'}
    </button>
  );
}

/** The fields every SMS-guarded form has. */
type SmsValues = Values & { companyAccount: string; captchaCode: string; verifyCode: string };

/**
 * The captcha-guarded SMS code of a sign-in form: checks the number and the captcha, sends the code
 * through `send`, counts down the resend wait, and refreshes the captcha (used either way).
 */
export function useSmsCode<V extends SmsValues>(
  form: Fields<V>,
  send: (
    phone: string,
    captcha: { captchaId: string; captchaCode: string },
  ) => Promise<{ resendAfter: number }>,
  onError: (message: string) => void,
) {
  const captcha = useCaptcha();
  const countdown = useCountdown();
  const [sending, setSending] = useState(false);
  const [sentTo, setSentTo] = useState('');

  async function sendCode() {
    const phoneError = fieldError(mobileField, form.values.companyAccount);
    const captchaError = fieldError(captchaCodeField, form.values.captchaCode);
    form.setError('companyAccount', phoneError);
    form.setError('captchaCode', captchaError);
    if (phoneError || captchaError) return;
    setSending(true);
    onError('');
    try {
      const phone = form.values.companyAccount.trim();
      const sent = await send(phone, {
        captchaId: await captcha.settled(),
        captchaCode: form.values.captchaCode.trim(),
      });
      countdown.start(sent.resendAfter);
      setSentTo(phone);
    } catch (error) {
      onError(error instanceof ApiError ? error.message : '验证码发送失败，请稍后重试');
    } finally {
      form.set('captchaCode', '' as V['captchaCode']);
      captcha.refresh();
      setSending(false);
    }
  }

  return { captcha, left: countdown.left, sending, sentTo, sendCode };
}

/** The captcha and SMS-code fields, with the "sent to" hint. */
export function SmsCodeFields<V extends SmsValues>({
  form,
  sms,
}: {
  form: Fields<V>;
  sms: ReturnType<typeof useSmsCode<V>>;
}) {
  return (
    <>
      <TextField
        label="图形验证码"
        icon={Icons.shield}
        placeholder="获取短信前请先输入"
        autoComplete="off"
        maxLength={8}
        {...form.field('captchaCode')}
        addon={<CaptchaImage captcha={sms.captcha} />}
      />
      <TextField
        label="短信验证码"
        icon={Icons.message}
        placeholder="请输入 6 位短信验证码"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        {...form.field('verifyCode')}
        addon={<SmsButton left={sms.left} sending={sms.sending} onSend={sms.sendCode} />}
      />
      {sms.sentTo ? (
        <p className="field-hint">验证码已发送至 {maskPhone(sms.sentTo)}，5 分钟内有效。</p>
      ) : null}
    </>
  );
}
