import * as authCalls from '@wxc/contract/calls/auth';
import { useCallback, useEffect, useRef, useState } from 'react';
import { call } from '../api/client';

/**
 * The image captcha that guards login and every SMS send. Captchas are single-use on the server,
 * so forms call `refresh()` after every attempt that used one, failed or not.
 */
export function useCaptcha() {
  const [state, setState] = useState<{ id: string; image: string; loading: boolean; failed: boolean }>({
    id: '',
    image: '',
    loading: true,
    failed: false,
  });
  const seq = useRef(0);
  /** The id of the newest captcha requested, once it has arrived ('' if it could not be loaded). */
  const latest = useRef<Promise<string>>(Promise.resolve(''));

  const refresh = useCallback(() => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true, failed: false }));
    latest.current = call(authCalls.getVerifyCode, { t: String(Date.now()) }, { quiet: true })
      .then((c) => {
        if (mine === seq.current)
          setState({ id: c.captchaId, image: c.image, loading: false, failed: false });
        return c.captchaId;
      })
      .catch(() => {
        if (mine === seq.current) setState({ id: '', image: '', loading: false, failed: true });
        return '';
      });
  }, []);

  useEffect(() => {
    refresh();
  }, [refresh]);

  /**
   * The captcha id to send with a form. A form sent while the captcha is still on its way (autofill
   * and Enter, a slow network) waits for it, instead of going out without one and failing.
   */
  const settled = useCallback(async (): Promise<string> => {
    for (;;) {
      const pending = latest.current;
      const id = await pending;
      if (pending === latest.current) return id; // else refreshed meanwhile: wait for the newer one
    }
  }, []);

  return { ...state, refresh, settled };
}

export function CaptchaImage({ captcha }: { captcha: ReturnType<typeof useCaptcha> }) {
  return (
    <button
      type="button"
      className="captcha"
      onClick={captcha.refresh}
      title="看不清？点击换一张"
      aria-label="图形验证码，点击换一张"
      // A new captcha on its way: the one shown is used up (screen readers and tests can tell).
      aria-busy={captcha.loading}
    >
      {captcha.image ? (
        <img src={captcha.image} alt="图形验证码" width={112} height={40} />
      ) : (
        <span className="captcha-text">{captcha.failed ? '加载失败，点击重试' : '加载中…'}</span>
      )}
    </button>
  );
}
