import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from './config.js';

/** The OpenAPI document (from the contract's schemas, via the routes) and a reference page at /docs. */
export async function registerApiDocs(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: `${config.productTitle} API`,
        version: '1.0.0',
        description: [
          '所有接口均返回 `{ code, message, data }`，`code` 为字符串，`"200"` 表示成功；其他取值见错误码表。',
          '除标注为 GET 的接口外均为 POST，请求体为 JSON。',
          '需要登录的接口在 `Authorization` 请求头中携带登录返回的 token；token 过期或失效时返回 `code: "403"`。',
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
            description:
              '子账号 appSecret（仅限 HTTPS）。也可不传密钥而签名：x-timestamp（unix 秒）、x-nonce（8-64 位，不可重复）、x-signature = hex(HMAC-SHA256(key = hex(SHA-256(appSecret)), appKey + "\\n" + timestamp + "\\n" + nonce + "\\n" + 原始请求体))',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 0 },
    staticCSP: true,
  });
}
