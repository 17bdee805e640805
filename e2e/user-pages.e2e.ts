import * as authCalls from '@wxc/contract/calls/auth';
import { describe, expect, it } from 'vitest';
import {
  apiLogin,
  CAPTCHA,
  chooseFromAvatarMenu,
  gone,
  openPage,
  see,
  seedCompany,
  uniquePhone,
  useSuite,
} from './harness';

const suite = useSuite();

describe('user console pages', () => {
  it('edits the company name and the user name on /userInfo/index', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = t;
    await page.goto('/dashboard');
    await chooseFromAvatarMenu(page, '控制台');
    await page.waitForURL('**/userInfo/index');
    await expect.poll(() => page.getByTestId('company-name').textContent()).toBe(company.companyName);
    await expect.poll(() => page.locator('.app-breadcrumb').textContent()).toMatch(/首页\s*\/\s*控制台/);

    for (const [field, title, value] of [
      ['company-name', '修改公司名称', '新星信息技术有限公司'],
      ['user-name', '修改用户名', '李经理'],
    ] as const) {
      await page.getByTestId(field).locator('..').getByRole('button', { name: '修改' }).click();
      const dialog = page.locator('.ant-modal').filter({ hasText: title });
      await dialog.locator('input').fill('');
      await see(dialog.getByText(field === 'company-name' ? '公司名称至少 2 个字符' : '请输入用户名'));
      await dialog.locator('input').fill(value);
      await dialog.getByRole('button', { name: /保\s*存/ }).click();
      await gone(dialog);
      await expect.poll(() => page.getByTestId(field).textContent()).toBe(value);
    }
    await see(page.locator('.avatar-name').getByText('李经理'));
    const info = await suite.server.api(authCalls.refreshLoginInfo, {}, company.token);
    expect(info.data).toMatchObject({ companyName: '新星信息技术有限公司', userName: '李经理' });
    t.assertNoErrors();
    await t.close();
  });

  it('changes the password with the old one on /userInfo/resetPass', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    t.allow(/status of 400/);
    const { page } = t;
    await page.goto('/userInfo/index');
    await page.getByRole('button', { name: '修改密码' }).click();
    await page.waitForURL('**/userInfo/resetPass');
    await expect
      .poll(() => page.locator('.app-breadcrumb').textContent())
      .toMatch(/首页\s*\/\s*控制台\s*\/\s*修改密码/);

    await page.getByLabel('原密码').fill('WrongOld123');
    await page.getByLabel('新密码', { exact: true }).fill('abc');
    await page.getByLabel('确认新密码').fill('abcd');
    await page.getByRole('button', { name: '确认修改' }).click();
    await see(page.getByText('密码需为 8-32 位，且同时包含字母和数字'));
    await see(page.getByText('两次输入的密码不一致'));

    await page.getByLabel('新密码', { exact: true }).fill('Changed2024x');
    await page.getByLabel('确认新密码').fill('Changed2024x');
    await page.getByRole('button', { name: '确认修改' }).click();
    await see(page.locator('.ant-message-notice').getByText('原密码错误'));

    await page.getByLabel('原密码').fill(company.password);
    await page.getByRole('button', { name: '确认修改' }).click();
    await see(page.getByText('密码已修改，其他设备上的登录已失效'));
    expect(await apiLogin(suite.server, company.phone, 'Changed2024x')).toBeTruthy();
    t.assertNoErrors();
    await t.close();
  });

  it('changes the phone number with an SMS code sent to the new number on /userInfo/resetPhone', async () => {
    const company = await seedCompany(suite.server);
    const t = await openPage(suite.browser, suite.server, { token: company.token });
    const { page } = t;
    const newPhone = uniquePhone();
    await page.goto('/userInfo/resetPhone');
    await see(page.getByRole('heading', { name: '修改手机号' }));
    await page.getByLabel('新手机号').fill(company.phone);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await see(page.getByText('新手机号不能与当前手机号相同'));

    await page.getByLabel('新手机号').fill(newPhone);
    await page.getByPlaceholder('发送短信前请先输入').fill(CAPTCHA);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await see(page.getByRole('button', { name: /秒后重发/ }));
    const code = await suite.server.smsCode(newPhone, 'changePhone');
    await page.getByPlaceholder('请输入 6 位短信验证码').fill(code);
    await page.getByRole('button', { name: '确认更换' }).click();
    await page.waitForURL('**/userInfo/index');
    await see(page.getByText(`手机号已更换为 ${newPhone}`));
    await see(page.getByText(`当前手机号 ${newPhone}`));
    expect(await apiLogin(suite.server, newPhone, company.password)).toBeTruthy();
    t.assertNoErrors();
    await t.close();
  });
});
