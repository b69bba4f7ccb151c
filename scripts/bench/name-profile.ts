// `node --import tsx scripts/bench/name-profile.ts --db URL [--per-kind 200]`: where a fresh
// name search's time goes, in-process (no HTTP): fresh queries of each kind (fresh-queries.ts)
// through the search service with the cache off, each timed whole and statement by statement
// (the CPU time of this process while Kysely's executor runs each, by what the statement does). For the
// profiles in docs/benchmarks.md.
import { parseArgs } from 'node:util';
import { buildCountryCatalogue } from '../../src/countries/catalogue.ts';
import { openEngine } from '../../src/db/connect.ts';
import { createCompanySearch } from '../../src/search/company-search.ts';
import { planSearch } from '../../src/search/search.service.ts';
import { buildFreshPools, FRESH_KINDS } from './fresh-queries.ts';

const { values: args } = parseArgs({
  options: { db: { type: 'string' }, 'per-kind': { type: 'string', default: '200' }, rounds: { type: 'string', default: '1' } },
});
const engine = openEngine(args.db!);
const countries = buildCountryCatalogue();
const search = createCompanySearch({ db: engine.db, seam: engine.seam, maxResults: 10, cacheEntries: 0 });
await search.warmUp();

// This process's CPU time (user + system), not wall time: on a shared machine the wall time of
// a 0.1 ms statement moves 10 × with the load; the CPU it takes much less. SQLite works in this
// process; PostgreSQL's own time is not in it (see its EXPLAIN (ANALYZE, BUFFERS) instead).
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

// Statement timing: wrap the executor's executeQuery.
const byStatement = new Map<string, { ms: number; calls: number }>();
const executor = engine.db.getExecutor() as unknown as { executeQuery: (q: { sql: string }, id: unknown) => Promise<unknown> };
const original = executor.executeQuery.bind(executor);
executor.executeQuery = async (query, id) => {
  const started = cpuMs();
  try {
    return await original(query, id);
  } finally {
    const label = labelOf(query.sql);
    const entry = byStatement.get(label) ?? { ms: 0, calls: 0 };
    entry.ms += cpuMs() - started;
    entry.calls++;
    byStatement.set(label, entry);
  }
};

function labelOf(text: string): string {
  const t = text.replace(/^\/\*[^*]*\*\/\s*/, '').replace(/\s+/g, ' ');
  for (const [pattern, label] of [
    [/json_group_array|ARRAY\(SELECT word FROM unnest/, 'near matches: word look-up'],
    [/from company_word_fts as "f"/, 'near matches: word index → candidates'],
    [/WHERE rowid > CAST|WHERE id > \$1 ORDER BY id/, 'vocabulary: catch-up'],
    [/from "data_version"/, 'data version'],
    [/name_word_trigrams|company_name_words WHERE word LIKE/, "query words → names' words"],
    [/company_word_fts|&& \$/, 'word index → candidates'],
    [/f\.rowid FROM company_name_fts f JOIN companies v|from company_name_fts as "f"|UNION ALL \(SELECT id FROM companies/, 'near matches: candidates'],
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
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)] ?? 0;
console.log(`| kind | queries | CPU ms: median | p90 | max | statements: CPU ms per query (calls per query) |`);
console.log('|---|---|---|---|---|---|');
for (const kind of FRESH_KINDS) {
  const times: number[] = [];
  byStatement.clear();
  const paths = pools.paths[kind];
  for (const path of paths) {
    const params = new URL(path, 'http://x').searchParams;
    const plan = planSearch(countries, { q: params.get('q')!, type: (params.get('type') ?? 'name') as 'name' | 'tax_id', country: params.get('country') });
    const started = cpuMs();
    await search.find(plan);
    times.push(cpuMs() - started);
  }
  const statements = [...byStatement.entries()]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(([label, { ms, calls }]) => `${label}: ${(ms / paths.length).toFixed(2)} (${(calls / paths.length).toFixed(1)})`)
    .join('; ');
  console.log(`| ${kind} | ${paths.length} | ${median(times).toFixed(2)} | ${p90(times).toFixed(2)} | ${Math.max(...times).toFixed(1)} | ${statements} |`);
}
console.log(`RSS after the run: ${Math.round(process.memoryUsage().rss / 1048576)} MB`);
await engine.close();
