// @vitest-environment happy-dom
import * as authCalls from '@wxc/contract/calls/auth';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/request';
import { useSession } from '../../stores/session';
import { LoginForm } from './LoginForm';

const call = vi.fn();
vi.mock('../../api/client', async () => ({
  call: (...args: unknown[]) => call(...args),
  ApiError: (await import('../../api/request')).ApiError,
}));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const userInfo = {
  id: 'u1',
  companyName: '测试公司',
  companyAccount: '13800000000',
  userName: '',
  accountType: 1,
  realNameUser: 0,
  serverFlag: 'test',
  roles: ['customer'],
};

let container: HTMLDivElement;
let root: Root;
let captchas = 0;

function type(label: string, value: string) {
  const input = container.querySelector<HTMLInputElement>(`input[name="${label}"]`)!;
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function submit() {
  await act(async () => {
    container.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
  });
}

const text = () => container.textContent ?? '';

beforeEach(async () => {
  captchas = 0;
  call.mockReset();
  call.mockImplementation(async (def: unknown) => {
    if (def === authCalls.getVerifyCode) {
      captchas += 1;
      return { captchaId: `c${captchas}`, image: `data:image/svg+xml,${captchas}` };
    }
    throw new Error('unexpected call');
  });
  useSession.setState({ token: undefined, user: null, roles: null });
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

async function render(onSignedIn = vi.fn()) {
  await act(async () => {
    root.render(<LoginForm initialAccount="" onSignedIn={onSignedIn} onForgot={vi.fn()} />);
  });
  return onSignedIn;
}

describe('LoginForm', () => {
  it('shows the contract rules inline and sends nothing while they fail', async () => {
    await render();
    await submit();
    expect(text()).toContain('请输入账号');
    expect(text()).toContain('请输入密码');
    expect(text()).toContain('请输入图形验证码');
    expect(call).toHaveBeenCalledTimes(1); // the captcha image only
  });

  it('shows the service message and takes a new captcha after a failed login', async () => {
    await render();
    call.mockImplementationOnce(async () => {
      throw new ApiError('账号或密码错误', 'business', '40013', 400);
    });
    type('companyAccount', ' 13800000000 ');
    type('password', 'secret123');
    type('captchaCode', '1234');
    await submit();
    expect(call).toHaveBeenCalledWith(
      authCalls.login,
      { companyAccount: '13800000000', password: 'secret123', captchaId: 'c1', captchaCode: '1234' },
      { quiet: true },
    );
    expect(text()).toContain('账号或密码错误');
    expect(captchas).toBe(2);
    expect(container.querySelector<HTMLInputElement>('input[name="captchaCode"]')!.value).toBe('');
    expect(container.querySelector('img')!.getAttribute('src')).toBe('data:image/svg+xml,2');
  });

  it('takes a new captcha when the image is clicked', async () => {
    await render();
    await act(async () => {
      container.querySelector<HTMLButtonElement>('button.captcha')!.click();
    });
    expect(captchas).toBe(2);
    expect(container.querySelector('img')!.getAttribute('src')).toBe('data:image/svg+xml,2');
  });

  it('keeps the session and hands over after a successful login', async () => {
    const onSignedIn = await render();
    call.mockImplementationOnce(async () => ({ token: 'tok', userInfo }));
    type('companyAccount', '13800000000');
    type('password', 'secret123');
    type('captchaCode', '1234');
    await submit();
    expect(onSignedIn).toHaveBeenCalledTimes(1);
    expect(useSession.getState()).toMatchObject({ token: 'tok', roles: ['customer'] });
    expect(document.cookie).toContain('Admin-Token=tok');
  });
});
