// `node --import tsx scripts/bench/name-profile.ts --db URL [--per-kind 200]`: where a fresh
// name search's time goes, in-process (no HTTP): fresh queries of each kind (fresh-queries.ts)
// through the search service with the cache off, each timed whole and statement by statement
// (the CPU time of this process while Kysely's executor runs each, by what the statement does). For the
// profiles in docs/benchmarks.md.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildCountryCatalogue } from '../../src/countries/catalogue.ts';
import { openEngine } from '../../src/db/connect.ts';
import { createCompanySearch } from '../../src/search/company-search.ts';
import { planSearch } from '../../src/search/search.service.ts';
import { buildFreshPools, FRESH_KINDS } from './fresh-queries.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    'per-kind': { type: 'string', default: '200' },
    rounds: { type: 'string', default: '1' },
    // Prints the slowest share of all queries (e.g. 0.05), each with its statements.
    slowest: { type: 'string' },
    // Only the name queries with a word of one or two letters (D8 checks it on rows: issue 28's tail).
    'short-words-only': { type: 'boolean', default: false },
    // The in-memory index of names (src/search/visible-names.ts): on unless `no`.
    'name-index': { type: 'string', default: 'yes' },
    // Near matches from memory (the names' words, all-name-words.ts): `yes`, `no`, or the engine's default.
    'name-words': { type: 'string' },
    // Only these kinds (comma-separated, fresh-queries.ts), e.g. `misspelt name`.
    kinds: { type: 'string' },
    // SQLite pragmas set on the connection before the run, `;`-separated (e.g. `mmap_size = 268435456`).
    pragma: { type: 'string' },
  },
});
const engine = openEngine(args.db!);
const countries = buildCountryCatalogue();
const search = createCompanySearch({
  db: engine.db,
  seam: engine.seam,
  maxResults: 10,
  cacheEntries: 0,
  nameIndex: args['name-index'] !== 'no',
  ...(args['name-words'] ? { nameWords: args['name-words'] === 'yes' } : {}),
});
for (const p of args.pragma ? args.pragma.split(';').filter((x) => x.trim()) : []) await sql.raw(`PRAGMA ${p}`).execute(engine.db);
await search.warmUp();
// Profiled once loaded (a serving process loads it in the background; until then, the database path).
const loadStarted = performance.now();
await search.nameIndexLoaded();
const index = search.nameIndex();
if (index)
  console.log(
    `index of names: ${index.companies} companies, ${(index.bytes / 1048576).toFixed(1)} MB${'wordBytes' in index ? `, names' words ${(index.wordBytes / 1048576).toFixed(1)} MB, loaded ${Math.round(index.wordsLoadMs ?? 0)} ms after the index` : ''}, loaded in ${Math.round(performance.now() - loadStarted)} ms`,
  );

// This process's CPU time (user + system), not wall time: on a shared machine the wall time of
// a 0.1 ms statement moves 10 × with the load; the CPU it takes much less. SQLite works in this
// process; PostgreSQL's own time is not in it (see its EXPLAIN (ANALYZE, BUFFERS) instead).
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

// Statement timing: wrap the executor's executeQuery. PostgreSQL works in its own processes:
// its statements are timed by the wall clock (and the slowest queries sorted by it).
const onPostgres = args.db!.startsWith('postgres');
const statementClock = onPostgres ? () => performance.now() : cpuMs;
const byStatement = new Map<string, { ms: number; calls: number; reads: number; rows: number }>();
// Read system calls of this process (SQLite's page reads that miss its cache: one pread a page), from /proc.
const readCalls = () => Number(/syscr: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
// The current query's statements, for --slowest.
let thisQuery: Array<{ label: string; ms: number }> = [];
const executor = engine.db.getExecutor() as unknown as { executeQuery: (q: { sql: string }, id: unknown) => Promise<unknown> };
const original = executor.executeQuery.bind(executor);
executor.executeQuery = async (query, id) => {
  const reads = readCalls();
  const started = statementClock();
  let rows = 0;
  try {
    const result = await original(query, id);
    rows = (result as { rows?: unknown[] }).rows?.length ?? 0;
    return result;
  } finally {
    const ended = statementClock();
    const label = labelOf(query.sql);
    const entry = byStatement.get(label) ?? { ms: 0, calls: 0, reads: 0, rows: 0 };
    entry.rows += rows;
    entry.ms += ended - started;
    // Reading /proc/self/io is two read calls itself.
    entry.reads += readCalls() - reads - 2;
    entry.calls++;
    byStatement.set(label, entry);
    thisQuery.push({ label, ms: statementClock() - started });
  }
};

function labelOf(text: string): string {
  const t = text.replace(/^\/\*[^*]*\*\/\s*/, '').replace(/\s+/g, ' ');
  for (const [pattern, label] of [
    [/json_group_array|ARRAY\(SELECT word FROM unnest/, 'near matches: word look-up'],
    [/from company_(near_)?word_fts as "f"/, 'near matches: word index → candidates'],
    [/WHERE rowid > CAST|WHERE id > \$1 ORDER BY id/, 'vocabulary: catch-up'],
    [/from "data_version"/, 'data version'],
    [/from "company_changes"/, 'index of names: change log'],
    [/^select "id", "company_name", "tax_id", "tax_id_norm"[^]*where companies\.id (IN \(SELECT value|= ANY)/, 'index of names: shown rows by id'],
    [/name_word_trigrams|company_name_words WHERE word LIKE/, "query words → names' words"],
    [/company_word_fts|&& \$/, 'word index → candidates'],
    [/companies\.id IN \(SELECT rowid FROM company_name_fts WHERE/, 'exact query (fallback)'],
    [
      /f\.rowid FROM "?company_(name|near)_fts"? f JOIN companies v|from "?company_(name|near)_fts"? as "f"|UNION ALL \(SELECT id FROM companies/,
      'near matches: candidates',
    ],
    [/company_name_fts MATCH|FROM companies WHERE name_key LIKE/, 'substring index → candidates'],
    [/json_group_array|ARRAY\(SELECT word FROM unnest/, 'near matches: word look-up'],
    [/from "reports"|FROM reports/i, 'reports'],
    [/limit 30000|LIMIT 30000/i, 'rank walk'],
  ] as const) {
    if (pattern.test(t)) return label;
  }
  return t.slice(0, 70);
}

const pools = await buildFreshPools(engine.db, Number(args['per-kind']), new Set());
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? 0;
const all: Array<{ kind: string; q: string; ms: number; wall: number; statements: Array<{ label: string; ms: number }> }> = [];
console.log(
  `| kind | queries | CPU ms: mean | median | p90 | p95 | p99 | max | wall ms: median | p99 | statements: ${onPostgres ? 'wall' : 'CPU'} ms per query (calls per query) |`,
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
// PostgreSQL's CPU: its backends serving this database (only this process uses it: a copy), from /proc.
const backendTicks = async (): Promise<Map<number, number>> => {
  const out = new Map<number, number>();
  if (!onPostgres) return out;
  const { rows } = await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`.execute(engine.db);
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // Another machine, or gone.
    }
  }
  return out;
};
const kinds = args.kinds ? args.kinds.split(',') : [...FRESH_KINDS];
for (const kind of FRESH_KINDS.filter((k) => kinds.includes(k))) {
  const times: number[] = [];
  const ticksBefore = await backendTicks();
  // Wall time too: PostgreSQL's own work is not in this process's CPU.
  const walls: number[] = [];
  byStatement.clear();
  const paths = pools.paths[kind];
  for (const path of paths) {
    const params = new URL(path, 'http://x').searchParams;
    const plan = planSearch(countries, { q: params.get('q')!, type: (params.get('type') ?? 'name') as 'name' | 'tax_id', country: params.get('country') });
    if (args['short-words-only'] && (plan.kind !== 'name' || plan.otherWords.length === 0)) continue;
    thisQuery = [];
    const started = cpuMs();
    const startedAt = performance.now();
    await search.find(plan);
    times.push(cpuMs() - started);
    walls.push(performance.now() - startedAt);
    all.push({ kind, q: params.get('q')!, ms: times[times.length - 1]!, wall: walls[walls.length - 1]!, statements: thisQuery });
  }
  const ticksAfter = await backendTicks();
  let pgTicks = 0;
  for (const [pid, t] of ticksAfter) pgTicks += t - (ticksBefore.get(pid) ?? 0);
  const pgCpu = onPostgres ? ` PostgreSQL CPU ${((pgTicks * 10) / Math.max(1, times.length)).toFixed(2)} ms/query;` : '';
  const statements = [...byStatement.entries()]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(
      ([label, { ms, calls, reads, rows }]) =>
        `${label}: ${(ms / times.length).toFixed(2)} (${(calls / times.length).toFixed(1)}; ${(reads / times.length).toFixed(0)} reads, ${(rows / Math.max(1, calls)).toFixed(0)} rows a call)`,
    )
    .join('; ');
  const q = (x: number) => quantile(times, x).toFixed(2);
  if (times.length === 0) continue;
  console.log(
    `| ${kind} | ${times.length} | ${(times.reduce((a, b) => a + b, 0) / times.length).toFixed(2)} | ${q(0.5)} | ${q(0.9)} | ${q(0.95)} | ${q(0.99)} | ${Math.max(...times).toFixed(1)} | ${quantile(walls, 0.5).toFixed(2)} | ${quantile(walls, 0.99).toFixed(2)} |${pgCpu} ${statements} |`,
  );
}
if (args.slowest) {
  const names = all.filter((a) => a.kind !== 'tax-ID hit' && a.kind !== 'tax-ID miss');
  const slow = [...names].sort((a, b) => (onPostgres ? b.wall - a.wall : b.ms - a.ms)).slice(0, Math.ceil(names.length * Number(args.slowest)));
  console.log(`\nThe slowest ${slow.length} of ${names.length} name queries:`);
  for (const s of slow) {
    const parts = s.statements
      .filter((x) => x.ms >= 0.5)
      .map((x) => `${x.label} ${x.ms.toFixed(1)}`)
      .join('; ');
    console.log(`${s.ms.toFixed(1)} ms CPU, ${s.wall.toFixed(1)} wall  ${s.kind}  ${JSON.stringify(s.q)}  ${parts}`);
  }
}
console.log(`RSS after the run: ${Math.round(process.memoryUsage().rss / 1048576)} MB`);
await engine.close();
