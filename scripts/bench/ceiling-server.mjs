// The ceilings for `npm run bench`: a bare node:http server that answers every request with the
// byte-identical response (status, headers, body) of one real search, read from a JSON file; and,
// with `--fastify PATH`, the same bytes from a bare Fastify 5 app (issue 28, branch taxhit28): the
// version the server runs, the options and the one plugin its API scope registers (@fastify/swagger,
// which only reads the routes), one GET route at PATH, no database and no hook of ours. The
// distance between the two is the framework's; between it and a real answer, ours.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

const { status, headers, body } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const bytes = Buffer.from(body, 'base64');
const fastifyAt = process.argv.indexOf('--fastify');

async function fastifyServer(path) {
  const { default: Fastify, LogController } = await import('fastify');
  const { default: swagger } = await import('@fastify/swagger');
  const app = Fastify({
    logger: false,
    genReqId: () => randomUUID(),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024,
    return503OnClosing: true,
    forceCloseConnections: false,
    keepAliveTimeout: 5000,
  });
  await app.register(swagger, { openapi: { openapi: '3.0.3', info: { title: 'ceiling', version: '1.0.0' } } });
  app.get(path, (_request, reply) => {
    reply.code(status).headers(headers).send(bytes);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address();
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

if (fastifyAt > 0) {
  await fastifyServer(process.argv[fastifyAt + 1]);
} else {
  const server = http.createServer((req, res) => {
    res.writeHead(status, { ...headers, 'content-length': bytes.length });
    res.end(bytes);
  });
  server.keepAliveTimeout = 5000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
