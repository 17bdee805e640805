import { hash } from 'node:crypto';

/** A seeded random generator: the same device always yields the same person and contacts. */
export function seededRandom(seed: string): () => number {
  // One-shot hashes (no Hash object): a new account's network makes ~150 of them.
  let h = hash('sha256', seed, 'buffer').readUInt32LE(0);
  return () => {
    h = (h + 0x6d2b79f5) | 0;
    let t = Math.imul(h ^ (h >>> 15), 1 | h);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤'.split(
    '',
  );
const GIVEN =
  '伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华建国志强海燕红梅晓东晨阳欣怡子涵浩然宇轩思远雨萱梓琪俊杰嘉怡一鸣若曦'.split(
    '',
  );
const NICK_WORDS = [
  '阳光',
  '小鱼',
  '追风',
  '木子',
  '晴天',
  '岁月',
  '南风',
  '向日葵',
  '小白',
  '星辰',
  '清风',
  '柠檬',
  '老王',
  '大橙子',
  '奶茶',
  '山海',
  '小满',
  '知足',
];
const PLACES: [string, string][] = [
  ['广东', '深圳'],
  ['广东', '广州'],
  ['上海', '浦东'],
  ['北京', '朝阳'],
  ['浙江', '杭州'],
  ['江苏', '南京'],
  ['四川', '成都'],
  ['湖北', '武汉'],
  ['福建', '厦门'],
  ['山东', '青岛'],
];
const SIGNATURES = [
  '努力工作，认真生活',
  '保持热爱，奔赴山海',
  '今天也要加油鸭',
  '做个温柔的人',
  '',
  '一切都是最好的安排',
  '专注产品与用户',
];
const ROOM_NAMES = [
  '产品交流群',
  '家人群',
  '周末羽毛球',
  '客户服务群',
  '同学会',
  '技术讨论组',
  '团购福利群',
  '项目冲刺群',
];
const GHS: [string, string][] = [
  ['gh_3dfda90e39d6', '微信支付'],
  ['gh_25d9ac85a4bc', '腾讯新闻'],
  ['gh_7aac992b0363', '文件传输助手服务号'],
];

export interface SimPerson {
  wxid: string;
  nickname: string;
  alias: string;
  sex: number;
  signature: string;
  province: string;
  city: string;
}

export interface SimRoom {
  roomId: string;
  name: string;
  owner: string;
  members: SimPerson[];
}

export interface SimNetwork {
  self: SimPerson;
  friends: SimPerson[];
  rooms: SimRoom[];
  ghs: { wxid: string; nickname: string }[];
}

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const idPart = (seed: string, n = 10) => hash('sha256', seed, 'hex').slice(0, n);

function person(seed: string): SimPerson {
  const rand = seededRandom(seed);
  const surname = pick(rand, SURNAMES);
  const given = pick(rand, GIVEN) + (rand() < 0.5 ? pick(rand, GIVEN) : '');
  const nickname =
    rand() < 0.55
      ? `${surname}${given}`
      : `${pick(rand, NICK_WORDS)}${rand() < 0.3 ? Math.floor(rand() * 100) : ''}`;
  const [province, city] = pick(rand, PLACES);
  return {
    wxid: `wxid_sim_${idPart(seed)}`,
    nickname,
    alias: rand() < 0.4 ? `${surname.charCodeAt(0).toString(36)}${Math.floor(rand() * 100_000)}` : '',
    sex: rand() < 0.5 ? 1 : 2,
    signature: pick(rand, SIGNATURES),
    province,
    city,
  };
}

/** The person who logs in on a device: stable per device. */
export const personForDevice = (deviceId: string): SimPerson => person(`device:${deviceId}`);

/** The account's friends, groups and official accounts: stable per device. */
export function networkForDevice(deviceId: string, friendCount = 24, roomCount = 4): SimNetwork {
  const self = personForDevice(deviceId);
  const rand = seededRandom(`network:${deviceId}`);
  const friends = Array.from({ length: friendCount }, (_, i) => person(`friend:${deviceId}:${i}`));
  const rooms: SimRoom[] = Array.from({ length: roomCount }, (_, r) => {
    const size = 4 + Math.floor(rand() * 6);
    const members = new Set<SimPerson>();
    while (members.size < size)
      members.add(rand() < 0.7 ? pick(rand, friends) : person(`stranger:${deviceId}:${r}:${members.size}`));
    const list = [...members];
    return {
      roomId: `${Number.parseInt(idPart(`room:${deviceId}:${r}`, 10), 16)}@chatroom`,
      name: ROOM_NAMES[(r + Math.floor(rand() * ROOM_NAMES.length)) % ROOM_NAMES.length]!,
      owner: rand() < 0.5 ? self.wxid : list[0]!.wxid,
      members: list,
    };
  });
  return { self, friends, rooms, ghs: GHS.map(([wxid, nickname]) => ({ wxid, nickname })) };
}

/** A small SVG avatar: the first character of the name on a colour of its own. */
export function avatarSvg(name: string): string {
  const hue = Number.parseInt(idPart(name, 4), 16) % 360;
  const ch = [...name][0] ?? '?';
  const esc = ch.replace(/[<>&"']/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="12" fill="hsl(${hue},55%,55%)"/><text x="48" y="62" font-size="44" text-anchor="middle" fill="#fff" font-family="sans-serif">${esc}</text></svg>`;
}

/** A picture a virtual contact "sends": an SVG card with a caption. */
export function pictureSvg(caption: string, seed: string): string {
  const hue = Number.parseInt(idPart(seed, 4), 16) % 360;
  const text = caption.replace(/[<>&"']/g, '').slice(0, 16);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200" viewBox="0 0 320 200"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,60%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},70%,45%)"/></linearGradient></defs><rect width="320" height="200" fill="url(#g)"/><circle cx="250" cy="60" r="28" fill="rgba(255,255,255,.6)"/><path d="M0 200 L90 110 L150 160 L210 100 L320 200Z" fill="rgba(255,255,255,.35)"/><text x="20" y="40" font-size="20" fill="#fff" font-family="sans-serif">${text}</text></svg>`;
}

/** What a virtual friend answers to a text (echo, plus a few canned behaviours). */
export function replyTo(
  text: string,
  now: Date,
): { kind: 'text'; content: string } | { kind: 'image'; caption: string } | { kind: 'file'; name: string } {
  const t = text.trim();
  if (/图片|照片|pic|image/i.test(t)) return { kind: 'image', caption: '给你发张图' };
  if (/文件|资料|file/i.test(t)) return { kind: 'file', name: '资料.pdf' };
  if (/几点|时间|time/i.test(t)) {
    const cst = new Date(now.getTime() + 8 * 3_600_000);
    return { kind: 'text', content: `现在是北京时间 ${cst.toISOString().slice(11, 16)}` };
  }
  if (/^(你好|您好|hi|hello|在吗)/i.test(t)) return { kind: 'text', content: '你好呀，有什么可以帮你？' };
  return { kind: 'text', content: `收到：${t.slice(0, 200)}` };
}
