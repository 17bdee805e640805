// A bare Fastify route on the same machine: the ceiling our API's overhead is compared against.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/echo', async (req) => ({ code: '200', message: '成功', data: { echo: req.body } }));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`Console: ${address}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
