// The watchers scenario's searches while delivering (watchers.ts): autocannon from this process
// until its stdin closes (the receiver has every delivery), so the searches cover the WHOLE
// delivery, not a fixed span after which the worker would go at full speed. argv: url, key,
// connections. Prints `ready` once loaded, starts at the first line on stdin (the approval's
// commit: node and autocannon's start-up, ~0.35 s of CPU, then falls before the measured window,
// not in it beside the server on the same cores), then prints autocannon's result (JSON) and the
// seconds it ran.
import autocannon from 'autocannon';

const [url, key, connections] = process.argv.slice(2);
let instance = null;
let stopped = false;
const start = () => {
  if (instance || stopped) return;
  const started = performance.now();
  instance = autocannon({ url, connections: Number(connections), duration: 3600, headers: { 'x-api-key': key } }, (error, result) => {
    if (error) throw error;
    process.stdout.write(JSON.stringify({ ...result, ranSeconds: (performance.now() - started) / 1000 }));
  });
};
const stop = () => {
  stopped = true;
  instance?.stop();
};
process.stdin.on('data', start);
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdout.write('ready\n');
