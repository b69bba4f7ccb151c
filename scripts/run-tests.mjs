// `npm test`: every *.test.ts under src/ (fast unit tests), test/ (HTTP, storage, CLI) and clients/,
// with Node's own runner. The storage and HTTP suites run once per engine: SQLite always,
// PostgreSQL too when TEST_DATABASE_URL is set (CI sets it).
//
// Files run in parallel (each in its own process, on its own fresh databases, temporary
// directories and free ports), except those that measure timing under load or stop the shared
// PostgreSQL server: they run alone, one after another, after the parallel part.
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Files that must run alone: timing under load, several server processes, the database going away. */
const ALONE = [
  /^test\/multi-process\.test\.ts$/,
  /^test\/db-outage\.test\.ts$/,
  /^test\/transport\.test\.ts$/,
  /^test\/overload.*\.test\.ts$/,
  /^test\/burst.*\.test\.ts$/,
  // Times a 20 ms wait: under the parallel part's load the wait can run out before it is measured.
  /^src\/http\/admission-gate\.test\.ts$/,
];

/** Files run at once in the parallel part (TEST_CONCURRENCY; 1 runs everything one by one). */
const CONCURRENCY = Number(process.env.TEST_CONCURRENCY ?? 4) || 4;

/**
 * The longest files whose every test runs once per engine: each engine's half runs as a file of
 * its own (TEST_ENGINES, test/helpers/engines.ts), so the halves run side by side.
 */
const BY_ENGINE = [
  'test/cli.test.ts',
  'test/cli-user.test.ts',
  'test/portal.auth.test.ts',
  'test/name-search-strategy.test.ts',
  'test/import.test.ts',
  'test/bad-input.test.ts',
  'clients/typescript/test/client.test.ts',
];
const ENGINE_NAMES = ['sqlite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

/** One small file per engine that sets TEST_ENGINES and loads the real one (in .tmp/, ignored by git). */
function splitByEngine(file) {
  if (!BY_ENGINE.includes(file) || ENGINE_NAMES.length < 2) return [file];
  const dir = resolve('.tmp/test-shards');
  mkdirSync(dir, { recursive: true });
  return ENGINE_NAMES.map((engine) => {
    const shard = join(dir, `${file.replaceAll('/', '__')}.${engine}.test.mjs`);
    writeFileSync(shard, `process.env.TEST_ENGINES = '${engine}';\nawait import(${JSON.stringify(pathToFileURL(resolve(file)).href)});\n`);
    return shard;
  });
}

/**
 * The fast unit tests under src/ (pure rules, no server, no database of their own) run in one
 * process: a process of their own each cost more than the tests in it (~0.35 s of CPU for Node
 * and the TypeScript loader, against milliseconds of tests).
 */
function groupUnitTests(list) {
  const unit = list.filter((f) => f.startsWith('src/'));
  if (unit.length < 2) return list;
  const dir = resolve('.tmp/test-shards');
  mkdirSync(dir, { recursive: true });
  const shard = join(dir, 'src-unit-tests.test.mjs');
  writeFileSync(shard, unit.map((f) => `await import(${JSON.stringify(pathToFileURL(resolve(f)).href)});\n`).join(''));
  return [shard, ...list.filter((f) => !unit.includes(f))];
}

// `node scripts/run-tests.mjs [file.test.ts ...] [node --test flags]`: the files named, else all;
// the other arguments go to node --test as they are.
const named = process.argv.slice(2).filter((a) => a.endsWith('.test.ts'));
const flags = process.argv.slice(2).filter((a) => !named.includes(a));
// clients/: the typed client's tests run against a real server too.
const all = [...find('src'), ...find('test'), ...find('clients')].map((f) => f.split('\\').join('/')).sort();
const unknown = named.filter((f) => !all.includes(f.split('\\').join('/')));
if (unknown.length > 0) {
  console.error(`No such test file: ${unknown.join(', ')} (give paths from the repository root, e.g. test/quota.test.ts)`);
  process.exit(2);
}
const files = named.length > 0 ? all.filter((f) => named.some((n) => n.split('\\').join('/') === f)) : all;
const alone = files.filter((f) => ALONE.some((pattern) => pattern.test(f)));
rmSync('.tmp/test-shards', { recursive: true, force: true });
// Longest first (the files split by engine are the longest): files are started in this order,
// so the parallel part does not end with one long file running on its own.
const LONG = [...BY_ENGINE, 'test/portal.reports.e2e.test.ts', 'test/portal.e2e.test.ts', 'test/cli-serve.test.ts'];
const longestFirst = (list) => [...LONG.filter((f) => list.includes(f)), ...list.filter((f) => !LONG.includes(f))];
const together = longestFirst(groupUnitTests(files.filter((f) => !alone.includes(f)))).flatMap(splitByEngine);

function run(list, concurrency) {
  if (list.length === 0) return 0;
  const args = ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...flags, ...list];
  return spawnSync(process.execPath, args, { stdio: 'inherit' }).status ?? 1;
}

const first = run(together, CONCURRENCY);
const second = run(alone, 1);
process.exit(first || second);
