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
        securitySchemes: { session: { type: 'apiKey', in: 'header', name: 'Authorization' } },
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
