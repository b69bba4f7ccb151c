// The ceiling for `npm run bench`: a bare node:http server that answers every request with the
// byte-identical response (status, headers, body) of one real search, read from a JSON file.
import http from 'node:http';
import { readFileSync } from 'node:fs';

const { status, headers, body } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const bytes = Buffer.from(body, 'base64');
const server = http.createServer((req, res) => {
  res.writeHead(status, { ...headers, 'content-length': bytes.length });
  res.end(bytes);
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
