import { messagingCalls } from '@wxc/contract';
import type { Route } from '../../lib/http.js';
import type { Gateway } from './service.js';

/** The /api/msg/* calls (resetCallbackUrl: callbacks; uploads for sending: files). Handlers only delegate. */
export function registerMessagingRoutes(route: Route, gateway: Gateway) {
  route(messagingCalls.getQrCode, ({ input, auth }) => gateway.getQrCode(auth, input));
  route(messagingCalls.checkQrCode, ({ input, auth }) => gateway.checkQrCode(auth, input.instanceId));
  route(messagingCalls.checkQrCodeLoop, ({ input, auth }) =>
    gateway.checkQrCodeLoop(auth, input.instanceId, input.lastState, input.waitSeconds),
  );
  route(messagingCalls.getAuth, ({ input, auth }) => gateway.getAuth(auth, input.wxid));
  route(messagingCalls.logout, ({ input, auth }) => gateway.logout(auth, input.wxid));
  route(messagingCalls.proxyList, async () => gateway.proxyList());

  route(messagingCalls.sendMsgText, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'text', ...m }),
  );
  route(messagingCalls.sendMsgImg, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'image', ...m }),
  );
  route(messagingCalls.sendMsgVideo, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'video', ...m }),
  );
  route(messagingCalls.sendMsgFile, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'file', ...m }),
  );
  route(messagingCalls.sendMsgLink, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'link', ...m }),
  );
  route(messagingCalls.sendMsgApp, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'app', ...m }),
  );
  route(messagingCalls.sendMsgEmoji, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'emoji', ...m }),
  );
  route(messagingCalls.sendMsgVoice, ({ input: { wxid, toWxid, ...m }, auth }) =>
    gateway.send(auth, wxid, toWxid, { kind: 'voice', ...m }),
  );

  route(messagingCalls.syncInitAddressList, ({ input, auth }) => gateway.syncAddressList(auth, input.wxid));
  route(messagingCalls.getInitAddressListRes, ({ input, auth }) =>
    gateway.addressListResult(auth, input.wxid),
  );
  route(messagingCalls.getAddressList, ({ input, auth }) => gateway.addressList(auth, input.wxid));
  route(messagingCalls.getContact, ({ input, auth }) => gateway.contacts(auth, input.wxid, input.ids));
  route(messagingCalls.getChatRoomMember, ({ input, auth }) =>
    gateway.roomMembers(auth, input.wxid, input.roomId),
  );
  route(messagingCalls.showMsgConsole, ({ input, auth }) => gateway.history(auth, input));
  route(messagingCalls.getMsgImg, ({ input, auth }) =>
    gateway.messageMedia(auth, input.wxid, input.msgId, 'image'),
  );
  route(messagingCalls.getMsgVideo, ({ input, auth }) =>
    gateway.messageMedia(auth, input.wxid, input.msgId, 'video'),
  );
}
