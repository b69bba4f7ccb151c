// `npm test`: every *.test.ts under src/ (fast unit tests), test/ (HTTP, storage, CLI) and clients/,
// with Node's own runner. The storage and HTTP suites run once per engine: SQLite always,
// PostgreSQL too when TEST_DATABASE_URL is set (CI sets it).
//
// Files run in parallel (each in its own process, on its own fresh databases, temporary
// directories and free ports), except those that measure timing under load or stop the shared
// PostgreSQL server: they run alone, one after another, after the parallel part.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
  // Caddy and two servers under load while one drains (D36).
  /^test\/proxy\.test\.ts$/,
];

/** Files run at once in the parallel part (TEST_CONCURRENCY; 1 runs everything one by one). */
const CONCURRENCY = Number(process.env.TEST_CONCURRENCY ?? 4) || 4;

/**
 * The longest files whose every test runs once per engine: each engine's half runs as a file of
 * its own (TEST_ENGINES, test/helpers/engines.ts), so the halves run side by side.
 */
const BY_ENGINE = [
  'test/cli.test.ts',
  'test/name-search-strategy.test.ts',
  'test/import.test.ts',
  'test/bad-input.test.ts',
  'clients/typescript/test/client.test.ts',
  'test/portal.e2e.test.ts',
  'test/portal.reports.e2e.test.ts',
];
const ENGINE_NAMES = ['sqlite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

const SHARDS = resolve('.tmp/test-shards');

/** A small file (in .tmp/, ignored by git) that sets TEST_ENGINES when given, then loads `files` in turn. */
function shard(name, files, engine) {
  mkdirSync(SHARDS, { recursive: true });
  const path = join(SHARDS, `${name}.test.mjs`);
  const setEngine = engine ? `process.env.TEST_ENGINES = '${engine}';\n` : '';
  writeFileSync(path, setEngine + files.map((f) => `await import(${JSON.stringify(pathToFileURL(resolve(f)).href)});\n`).join(''));
  return path;
}

/** Each engine's half of a long file runs as a file of its own (TEST_ENGINES, test/helpers/engines.ts). */
function splitByEngine(file) {
  if (ENGINE_NAMES.length < 2) return [file];
  return ENGINE_NAMES.map((engine) => shard(`${file.replaceAll('/', '__')}.${engine}`, [file], engine));
}

/**
 * The other files run several to a process. A process of its own cost each file more CPU than
 * many of their tests: Node with the TypeScript loader and the whole app takes ~2 s of CPU to
 * start (the loader's hooks see each of ~350 modules), and on 2 cores the suite is CPU-bound.
 * Files in one process run one after another, each on its own databases, servers and ports.
 * The unit tests under src/ make one group; the rest `2 × TEST_CONCURRENCY` groups, dealt out
 * longest first.
 */
function grouped(list) {
  const unit = list.filter((f) => f.startsWith('src/'));
  const rest = list.filter((f) => !f.startsWith('src/'));
  const count = Math.min(rest.length, 2 * CONCURRENCY);
  const groups = Array.from({ length: count }, () => []);
  rest.forEach((f, i) => groups[i % count].push(f));
  return [...groups.map((g, i) => (g.length === 1 ? g[0] : shard(`group-${i + 1}`, g))), ...(unit.length > 1 ? [shard('src-unit-tests', unit)] : unit)];
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
rmSync(SHARDS, { recursive: true, force: true });
// Longest first: files are started in this order, so that the parallel part does not end with
// one long file running on its own.
const LONG = ['test/portal.reports.e2e.test.ts', 'test/cli-user.test.ts', 'test/portal.auth.test.ts', 'test/portal.e2e.test.ts', 'test/cli-serve.test.ts'];
const longestFirst = (list) => [...LONG.filter((f) => list.includes(f)), ...list.filter((f) => !LONG.includes(f))];
const parallel = files.filter((f) => !alone.includes(f));
const together = [
  ...parallel.filter((f) => BY_ENGINE.includes(f)).flatMap(splitByEngine),
  ...grouped(longestFirst(parallel.filter((f) => !BY_ENGINE.includes(f)))),
];

/**
 * Beside the usual TAP on stdout, scripts/failures-reporter.mjs writes the failed tests to a file
 * of its own; they are printed again at the very end, where a CI log is read first.
 */
const FAILURES = resolve('.tmp/test-failures');
const ownReporter = flags.some((f) => f.startsWith('--test-reporter'));
function reporters(part) {
  if (ownReporter) return [];
  return [
    '--test-reporter=tap',
    '--test-reporter-destination=stdout',
    `--test-reporter=${pathToFileURL(resolve('scripts/failures-reporter.mjs')).href}`,
    `--test-reporter-destination=${join(FAILURES, `${part}.txt`)}`,
  ];
}

function run(part, list, concurrency) {
  if (list.length === 0) return 0;
  const args = ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...reporters(part), ...flags, ...list];
  return spawnSync(process.execPath, args, { stdio: 'inherit' }).status ?? 1;
}

rmSync(FAILURES, { recursive: true, force: true });
mkdirSync(FAILURES, { recursive: true });
const first = run('parallel', together, CONCURRENCY);
// One process for them all: they run one after another anyway.
const second = run('alone', alone.length > 1 ? [shard('alone', alone)] : alone, 1);
for (const [part, status] of [
  ['parallel', first],
  ['alone', second],
]) {
  if (status === 0) continue;
  const path = join(FAILURES, `${part}.txt`);
  const listed = existsSync(path) ? readFileSync(path, 'utf8').trim() : '';
  console.error(
    `\n# The ${part} part failed (exit code ${status}). ${listed || 'No test reported a failure: a file failed to load or a process died; see its output above.'}`,
  );
}
process.exit(first || second);
