// The watchers scenario's searches while delivering (watchers.ts): autocannon from this process
// until its stdin closes (the receiver has every delivery), so the searches cover the WHOLE
// delivery, not a fixed span after which the worker would go at full speed. argv: url, key,
// connections. Prints autocannon's result (JSON) and the seconds it ran.
import autocannon from 'autocannon';

const [url, key, connections] = process.argv.slice(2);
const started = performance.now();
const instance = autocannon({ url, connections: Number(connections), duration: 3600, headers: { 'x-api-key': key } }, (error, result) => {
  if (error) throw error;
  process.stdout.write(JSON.stringify({ ...result, ranSeconds: (performance.now() - started) / 1000 }));
});
process.stdin.on('data', () => {});
process.stdin.on('end', () => instance.stop());
process.stdin.on('close', () => instance.stop());
