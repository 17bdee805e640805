// A bare Fastify route on the same machine: the ceiling our API's overhead is compared against.
//   POST /echo   answers the envelope around the request body (send-throughput.mjs)
//   POST /read   answers BASELINE_READ_JSON as it is (api-read.mjs: the same JSON the service answers)
import Fastify from 'fastify';

const readAnswer = JSON.parse(
  process.env.BASELINE_READ_JSON ?? '{"code":"200","message":"成功","data":null}',
);
const app = Fastify({ logger: false });
app.post('/echo', async (req) => ({ code: '200', message: '成功', data: { echo: req.body } }));
app.post('/read', async () => readAnswer);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`Console: ${address}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
