export { maskPhone, useCountdown } from '../../features/countdown';

export function SmsButton({ left, sending, onSend }: { left: number; sending: boolean; onSend(): void }) {
  return (
    <button type="button" className="btn sms-button" disabled={left > 0 || sending} onClick={onSend}>
      {sending ? '发送中…' : left > 0 ? `${left} 秒后重发` : '获取验证码'}
    </button>
  );
}
