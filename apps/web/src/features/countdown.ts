import { SMS_RESEND_SECONDS } from '@wxc/contract/constants';
import { useEffect, useState } from 'react';

/** The resend countdown after an SMS code was sent (60 s, or what the service says). */
export function useCountdown() {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return { left, start: (seconds: number = SMS_RESEND_SECONDS) => setLeft(Math.max(1, seconds)) };
}

export function maskPhone(phone: string): string {
  return phone.length === 11 ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}
