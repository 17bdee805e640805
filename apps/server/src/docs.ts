import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { IMAGE_MAX_BYTES, MEDIA_MAX_BYTES } from '@wxc/contract';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from './config.js';

/**
 * A signed request worked through, printed in the reference. The outputs were computed by the
 * server's own code; docs.test.ts recomputes them, so the text cannot drift from the code.
 */
export const SIGNING_EXAMPLE = {
  appKey: 'ak_3f9a1c2e7b6d40581a2b',
  appSecret: 'sk_Zq3vN8pL2xR7tY1wK5mB9cD4fG6hJ0sA',
  method: 'POST',
  path: '/api/msg/sendMsgText',
  timestamp: '1735689600',
  nonce: '5f2c9e1a7b3d4c60',
  body: '{"wxid":"wxid_abc123","toWxid":"filehelper","content":"你好"}',
  /** hex(SHA-256(body as UTF-8 bytes)) */
  bodySha256: 'b5e09f7762b4e25276068818e414a2bf8af7b60639e43c7c18853034e2a8c623',
  /** hex(SHA-256(appSecret)): the HMAC key (the 64 hex characters themselves) */
  key: 'd235cc510eef3dfb84a0a888f666fcd0e57f2c12654860128cb6ae31cfb040ff',
  stringToSign:
    'POST\n/api/msg/sendMsgText\nak_3f9a1c2e7b6d40581a2b\n1735689600\n5f2c9e1a7b3d4c60\nb5e09f7762b4e25276068818e414a2bf8af7b60639e43c7c18853034e2a8c623',
  signature: 'ec2f0d95c77e53e37d0f2719411cfe66eff4e8f0e9238eb145de4fb175c17b61',
} as const;

/** hex(SHA-256) of no bytes: the body digest of a request without a body. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const mb = (bytes: number) => `${bytes / 1024 / 1024} MB`;
const binary = (description: string) => ({ type: 'string', format: 'binary', description });

/**
 * Calls whose body is multipart/form-data, by call id, with their file fields. (Their contract
 * request schema is the empty object: the handlers read the parts themselves.)
 */
const MULTIPART_BODIES: Record<string, Record<string, object>> = {
  'tools.getSourceUrl': { file: binary(`媒体文件：图片、视频、语音或其他文件，最大 ${mb(MEDIA_MAX_BYTES)}`) },
  'realName.uploadImg': { img: binary(`一张 png 或 jpeg 图片，最大 ${mb(IMAGE_MAX_BYTES)}`) },
  'realName.uploadRealNameSource': {
    imgs: {
      type: 'array',
      items: { type: 'string', format: 'binary' },
      minItems: 2,
      maxItems: 2,
      description: `恰好两个文件（同名字段 imgs 出现两次），依次为社保记录、营业执照；png 或 jpeg，每个最大 ${mb(IMAGE_MAX_BYTES)}`,
    },
  },
};

const ex = SIGNING_EXAMPLE;
const SIGNED_FORMULA =
  'x-signature = hex(HMAC-SHA256(key = hex(SHA-256(appSecret)), 方法 + "\\n" + 路径 + "\\n" + appKey + "\\n" + timestamp + "\\n" + nonce + "\\n" + hex(SHA-256(请求体原始字节))))';

const CREDENTIALS_TEXT = [
  '## 程序调用：子账号凭证',
  '',
  '「消息网关」等接口可用子账号凭证调用。请求头都带 `x-app-key: <appKey>`，再任选一种方式：',
  '',
  '1. **密钥方式**：请求头 `x-app-secret: <appSecret>`。密钥随每个请求发送，**仅限 HTTPS**；生产环境中经 http 发来的密钥会被拒绝（`code: "403"`）。',
  '2. **签名方式**（推荐，密钥从不上传，http 也可用）：请求头 `x-timestamp`（当前 unix 时间，10 位秒数，与服务器相差不超过 5 分钟）、`x-nonce`（8–64 位字母、数字、`_` 或 `-`，每个只能用一次）和',
  `   \`${SIGNED_FORMULA}\`。`,
  '',
  '签名覆盖请求体的**原始字节**，任何内容类型都一样：JSON 就是发送的那段文本的 UTF-8 字节（空格、字段顺序都算在内，签名后不要再重新序列化）；multipart/form-data 是整个请求体，包括 boundary、各部分的头和文件内容，所以上传的文件也受签名保护；没有请求体时是空字节串的摘要 `' +
    EMPTY_SHA256 +
    '`。key 是 appSecret 的 SHA-256 的 64 位小写十六进制字符串，这串字符本身用作 HMAC 密钥。签名以小写十六进制比较。',
  '',
  '**示例**（可用来核对自己的实现）：',
  '',
  `- appKey：\`${ex.appKey}\``,
  `- appSecret：\`${ex.appSecret}\``,
  `- x-timestamp：\`${ex.timestamp}\``,
  `- x-nonce：\`${ex.nonce}\``,
  `- 请求：\`${ex.method} ${ex.path}\`，application/json，请求体：\`${ex.body}\``,
  `- hex(SHA-256(请求体的 UTF-8 字节))：\`${ex.bodySha256}\``,
  `- key = hex(SHA-256(appSecret))：\`${ex.key}\``,
  '- 待签字符串（六行：方法（大写）、接口路径（不含查询参数，如 `/api/msg/sendMsgText`）、appKey、x-timestamp、x-nonce、请求体摘要；行间一个换行符 \\n，末尾没有换行）：',
  '',
  '```',
  ex.stringToSign,
  '```',
  '',
  `- x-signature = hex(HMAC-SHA256(key, 待签字符串))：\`${ex.signature}\``,
].join('\n');

/** The OpenAPI document (from the contract's schemas, via the routes) and a reference page at /docs. */
export async function registerApiDocs(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: `${config.productTitle} API`,
        version: '1.0.0',
        description: [
          '所有接口均返回 `{ code, message, data }`，`code` 为字符串，`"200"` 表示成功；其他取值见错误码表。',
          '除标注为 GET 的接口外均为 POST，请求体为 JSON；上传文件的接口（/api/tools/getSourceUrl、/api/uploadImg、/api/uploadRealNameSource）为 multipart/form-data。',
          '需要登录的接口在 `Authorization` 请求头中携带登录返回的 token；token 过期或失效时返回 `code: "403"`。',
          CREDENTIALS_TEXT,
        ].join('\n\n'),
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'header', name: 'Authorization', description: '控制台登录令牌' },
          appKey: { type: 'apiKey', in: 'header', name: 'x-app-key', description: '子账号 appKey' },
          appSecret: {
            type: 'apiKey',
            in: 'header',
            name: 'x-app-secret',
            description: `子账号 appSecret，仅限 HTTPS（生产环境中经 http 发来会被拒绝）。也可不传密钥而签名：x-timestamp（unix 秒）、x-nonce（8-64 位，不可重复）、${SIGNED_FORMULA}；对 multipart 上传同样是整个请求体的原始字节。详见文档开头「程序调用」一节的示例。`,
          },
        },
      },
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const fields = MULTIPART_BODIES[String(input.schema?.operationId)];
      if (!fields) return out;
      return {
        ...out,
        schema: {
          ...out.schema,
          consumes: ['multipart/form-data'],
          body: { type: 'object', required: Object.keys(fields), properties: fields },
        },
      };
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // No validator badge: it is an image from validator.swagger.io, which a customer's network
    // may not reach (and the page's CSP allows images only from here).
    uiConfig: { docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 0, validatorUrl: null },
    // The page gets the console's own page headers (app.ts), not the plugin's fixed CSP: that one
    // always said upgrade-insecure-requests, so over plain http on a LAN name every script and style
    // went to an https origin that does not exist (a blank page), and it refused the inline styles
    // the page sets.
    staticCSP: false,
  });
}
