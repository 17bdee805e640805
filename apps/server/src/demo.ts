import type { Services } from './app.js';
import * as users from './modules/auth/repo.js';
import * as messaging from './modules/messaging/repo.js';
import { DEMO_ACCOUNT } from './seed.js';

/**
 * The demo company's messaging side, made the way a customer would: two accounts logged in by QR
 * through the simulator's phone actions, and a few conversations (the virtual contacts answer).
 * Runs once, on the embedded demo database.
 */
export async function seedDemoMessaging(services: Services): Promise<void> {
  const { db, gateway, simulator } = services;
  // Logins through a real network need a real phone: the demo company starts without accounts.
  if (!simulator) return;
  const company = await users.findUserByAccount(db, DEMO_ACCOUNT);
  if (!company || (await messaging.countOnline(db, 'company', company.id)) > 0) return;
  const caller = { companyId: company.id, subAccountId: null, via: 'session' as const };
  const online: string[] = [];
  for (let i = 0; i < 2; i++) {
    const qr = await gateway.getQrCode(caller, {});
    await simulator.phone.scan(qr.instanceId, qr.deviceId);
    await simulator.phone.confirm(qr.instanceId, qr.deviceId);
    const status = await gateway.checkQrCode(caller, qr.instanceId);
    if (status.account) online.push(status.account.wxid);
  }
  const [first, second] = online;
  if (!first) return;
  const book = (await gateway.addressList(caller, first)).list;
  const friends = book.filter((c) => c.kind === 'friend');
  const room = book.find((c) => c.kind === 'chatroom');
  const opener = friends[0];
  if (opener) {
    await simulator.control.inject(
      await gateway.accountRef(caller, first),
      opener.wxid,
      '你好，想了解一下你们的接口怎么接入？',
    );
    await gateway.send(caller, first, opener.wxid, {
      kind: 'text',
      content: '你好！注册后在「子账号」新建应用即可获得 appKey。',
    });
    await gateway.send(caller, first, opener.wxid, {
      kind: 'link',
      title: '接入文档',
      description: '三分钟完成接入',
      url: 'https://example.com/docs',
    });
  }
  if (friends[1])
    await gateway.send(caller, first, friends[1].wxid, {
      kind: 'text',
      content: '明天下午三点开会，记得带资料',
    });
  if (room)
    await gateway.send(caller, first, room.wxid, {
      kind: 'text',
      content: '大家好，本周的周报已经发到群文件了',
    });
  if (second) {
    const other = (await gateway.addressList(caller, second)).list.find((c) => c.kind === 'friend');
    if (other) await gateway.send(caller, second, other.wxid, { kind: 'text', content: '你好' });
  }
}
