import { type QrState, simCalls } from '@wxc/contract';
import type { CallRequest } from '@wxc/contract/call';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors.js';
import type { Route } from '../../lib/http.js';
import type { Gateway } from '../messaging/service.js';
import { avatarSvg } from './network.js';
import type { Simulator } from './provider.js';
import { SCAN_PAGE_HTML, SCAN_PAGE_JS } from './scan-page.js';

/** Where each phone action leaves the login when it succeeds (it throws otherwise). */
const STATE_AFTER = {
  scan: 'scanned',
  confirm: 'confirmed',
  confirm_verify: 'need_verify',
  verify: 'confirmed',
  cancel: 'cancelled',
} as const satisfies Record<CallRequest<typeof simCalls.scanAction>['action'], QrState>;

/** The phone's answer to a confirmation of a code it has not scanned (or that is no longer scanned). */
const NOT_SCANNED = '请先扫码';

/** The simulator's phone page, its avatars, and the /api/sim/* controls. */
export function registerSimulatorRoutes(
  app: FastifyInstance,
  route: Route,
  gateway: Gateway,
  sim: Simulator,
) {
  const phoneLogin = async (instanceId: string) => {
    const view = await gateway.loginForPhone(instanceId);
    if (!view) throw new AppError('NOT_FOUND', '二维码不存在');
    return view;
  };
  // An action needs the login alone (not the device's name the page shows).
  const actedOn = async (instanceId: string) => {
    const login = await gateway.loginForPhoneAction(instanceId);
    if (!login) throw new AppError('NOT_FOUND', '二维码不存在');
    return login;
  };

  route(simCalls.scanStatus, async ({ input }) => {
    const { login, deviceName, expiresIn } = await phoneLogin(input.instanceId);
    const person = sim.personForDevice(login.device_id);
    return {
      state: login.state,
      expiresIn,
      deviceName,
      person: { nickname: person.nickname, avatar: person.avatar, wxid: person.wxid },
      verifyCode: login.state === 'need_verify' ? login.verify_code : null,
      reason: login.logout_reason,
    };
  });

  route(
    simCalls.scanAction,
    async ({ input }) => {
      if (input.action === 'scan') {
        // Only the device is needed (which person scans); the scan itself moves the login only if it
        // waits, unexpired, and says why not otherwise. A code made by another process is read.
        const deviceId = sim.deviceOfQr(input.instanceId) ?? (await actedOn(input.instanceId)).device_id;
        await sim.phone.scan(input.instanceId, deviceId);
        return { state: STATE_AFTER.scan };
      }
      if (input.action === 'confirm') {
        // The phone's confirm button takes a scanned code only. A code made here is not read: the
        // confirmation moves a scanned login only, and when it is refused the login is read to say
        // why in the phone's words. A code made by another process is read first, as the others are.
        const made = sim.deviceOfQr(input.instanceId);
        const login = made ? undefined : await actedOn(input.instanceId);
        if (login && login.state !== 'scanned') throw new AppError('CONFLICT', NOT_SCANNED);
        try {
          await sim.phone.confirm(input.instanceId, made ?? login!.device_id, { scannedOnly: true });
        } catch (err) {
          // A refusal for the login's state (a quota's refusal comes only after the login moved).
          const aboutState = made && err instanceof AppError && err.is('CONFLICT');
          if (aboutState && (await actedOn(input.instanceId)).state !== 'scanned')
            throw new AppError('CONFLICT', NOT_SCANNED);
          throw err;
        }
        return { state: STATE_AFTER.confirm };
      }
      const login = await actedOn(input.instanceId);
      switch (input.action) {
        case 'confirm_verify':
          await sim.phone.requireVerify(login.id);
          break;
        case 'verify':
          if (login.state !== 'need_verify') throw new AppError('CONFLICT', '当前不需要验证');
          if (!input.code || input.code !== login.verify_code)
            throw new AppError('BAD_REQUEST', '验证码错误');
          await sim.phone.confirm(login.id, login.device_id);
          break;
        case 'cancel':
          await sim.phone.cancel(login.id);
          break;
      }
      // Each action either moved the login to its state or threw: no need to read it again.
      return { state: STATE_AFTER[input.action] };
    },
    { rateLimitPerMinute: 120 },
  );

  route(simCalls.kick, async ({ input, auth }) => {
    await sim.control.kick(await gateway.accountRef(auth, input.wxid), input.reason);
    return { ok: true as const };
  });
  route(simCalls.expireQr, async ({ input, auth }) => {
    await gateway.expireQr(auth, input.instanceId);
    return { ok: true as const };
  });
  route(simCalls.setUnreachable, async ({ input, auth }) => {
    const account = await gateway.accountRef(auth, input.wxid);
    if (!(await sim.control.setUnreachable(account, input.contactWxid, input.unreachable))) {
      throw new AppError('NOT_FOUND', '联系人不在该账号的通讯录中');
    }
    return { ok: true as const };
  });
  route(simCalls.injectMessage, async ({ input, auth }) => {
    const account = await gateway.accountRef(auth, input.wxid);
    if (input.roomId) {
      const members = await sim.control.roomMembers(account, input.roomId);
      if (!members.some((m) => m.member_wxid === input.fromWxid))
        throw new AppError('NOT_FOUND', '该成员不在群中');
    } else if ((await sim.control.contact(account, input.fromWxid))?.kind !== 'friend') {
      throw new AppError('NOT_FOUND', '该联系人不是好友');
    }
    const before = Date.now();
    await sim.control.inject(account, input.fromWxid, input.content, input.roomId);
    const latest = await gateway.history(auth, {
      wxid: input.wxid,
      peer: input.roomId ?? input.fromWxid,
      limit: 1,
    });
    const msg = latest.list[0];
    return { msgId: msg && msg.createTime >= Math.floor(before / 1000) ? msg.msgId : '' };
  });

  // The phone page (HTML + its script, same origin so the CSP allows it) and avatars.
  app.get('/sim/scan/:id', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(SCAN_PAGE_HTML),
  );
  app.get('/sim/scan.js', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(SCAN_PAGE_JS),
  );
  app.get<{ Params: { name: string } }>(
    '/sim/avatar/:name',
    { schema: { hide: true } },
    async (req, reply) => {
      // Fastify has already decoded the path parameter once; decoding again would throw on a literal %.
      const name = req.params.name.replace(/\.svg$/, '').slice(0, 40);
      return reply
        .type('image/svg+xml')
        .header('cache-control', 'public, max-age=86400')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .send(avatarSvg(name));
    },
  );
}

/**
 * Another messaging network is in use: the simulator's calls stay in the contract but answer that it
 * is off (a phone page or a fault injection has nothing to act on).
 */
export function registerSimulatorOff(route: Route) {
  const off = async (): Promise<never> => {
    throw new AppError('NOT_FOUND', '模拟器未启用：当前使用真实消息通道');
  };
  for (const call of Object.values(simCalls)) route(call, off);
}
