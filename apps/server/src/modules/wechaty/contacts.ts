import type { Contact } from '@wxc/contract';
import type { payloads } from 'wechaty-puppet';
import type { AddressList, RoomInfo } from '../messaging/provider.js';
import { ContactType, type Puppet } from './puppet.js';

/**
 * The address book of a logged-in puppet, in the gateway's terms: friends (people the account has
 * added), groups (rooms) and official accounts. Read from the network each time (a hosted puppet
 * caches payloads itself).
 */
export const contactsOf = {
  async addressList(puppet: Puppet): Promise<AddressList> {
    const self = puppet.currentUserId;
    const friends: string[] = [];
    const ghs: string[] = [];
    for (const p of await contactPayloads(puppet, await puppet.contactList())) {
      if (p.id === self || p.friend === false) continue;
      if (p.type === ContactType.Official) ghs.push(p.id);
      else if (p.type === ContactType.Individual || p.type === ContactType.Corporation) friends.push(p.id);
    }
    return { friends, chatrooms: await puppet.roomList(), ghs };
  },

  async listContacts(puppet: Puppet): Promise<Contact[]> {
    const self = puppet.currentUserId;
    const people = (await contactPayloads(puppet, await puppet.contactList()))
      .filter((p) => p.id !== self && p.friend !== false)
      .map(toContact);
    const rooms = await roomPayloads(puppet, await puppet.roomList());
    return [...people, ...rooms.map(roomToContact)];
  },

  async getContacts(puppet: Puppet, ids: string[]): Promise<Contact[]> {
    const found = await Promise.all(
      ids.map(async (id) => {
        try {
          return isRoomId(id)
            ? roomToContact(await puppet.roomPayload(id))
            : toContact(await puppet.contactPayload(id));
        } catch {
          return null;
        }
      }),
    );
    return found.filter((c): c is Contact => c !== null);
  },

  async hasContact(puppet: Puppet, peer: string): Promise<boolean> {
    try {
      if (isRoomId(peer)) await puppet.roomPayload(peer);
      else await puppet.contactPayload(peer);
      return true;
    } catch {
      return false;
    }
  },

  async getRoom(puppet: Puppet, roomId: string): Promise<RoomInfo | null> {
    let room: payloads.Room;
    try {
      room = await puppet.roomPayload(roomId);
    } catch {
      return null;
    }
    const members = await mapLimit(room.memberIdList, 8, async (id) => {
      const m = await puppet.roomMemberPayload(roomId, id).catch(() => null);
      return {
        wxid: id,
        nickname: m?.name ?? '',
        displayName: m?.roomAlias ?? '',
        inviter: m?.inviterId ?? '',
        avatar: m?.avatar ?? '',
      };
    });
    return { roomId, name: room.topic, owner: room.ownerId ?? '', avatar: room.avatar ?? '', members };
  },
};

/** Puppets' room ids end with @chatroom (wechaty's convention; the mock follows it). */
export const isRoomId = (id: string) => id.endsWith('@chatroom');

function toContact(p: payloads.Contact): Contact {
  return {
    wxid: p.id,
    nickname: p.name,
    remark: '',
    alias: p.alias ?? '',
    avatar: p.avatar ?? '',
    sex: p.gender ?? 0,
    signature: p.signature ?? '',
    country: '',
    province: p.province ?? '',
    city: p.city ?? '',
    kind: p.type === ContactType.Official ? 'gh' : 'friend',
  };
}

function roomToContact(r: payloads.Room): Contact {
  return {
    wxid: r.id,
    nickname: r.topic,
    remark: '',
    alias: '',
    avatar: r.avatar ?? '',
    sex: 0,
    signature: '',
    country: '',
    province: '',
    city: '',
    kind: 'chatroom',
  };
}

/** Payloads of many contacts, a few at a time (a hosted puppet answers each over the network). */
async function contactPayloads(puppet: Puppet, ids: string[]) {
  const found = await mapLimit(ids, 8, (id) => puppet.contactPayload(id).catch(() => null));
  return found.filter((p): p is payloads.Contact => p !== null);
}

async function roomPayloads(puppet: Puppet, ids: string[]) {
  const found = await mapLimit(ids, 8, (id) => puppet.roomPayload(id).catch(() => null));
  return found.filter((p): p is payloads.Room => p !== null);
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
