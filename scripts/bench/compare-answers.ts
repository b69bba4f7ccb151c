// `node --import tsx scripts/bench/compare-answers.ts --db URL --other DIR [--per-kind 1000]`:
// the answers of this checkout's search and of another checkout's (DIR, e.g. main's), in one
// process on the same database, compared one by one for the bench's fresh queries of every
// kind (fresh-queries.ts), the search cache off: a change meant to be exact must answer alike.
import { isDeepStrictEqual } from 'node:util';
import { parseArgs } from 'node:util';
import { buildCountryCatalogue } from '../../src/countries/catalogue.ts';
import { openEngine } from '../../src/db/connect.ts';
import { createCompanySearch } from '../../src/search/company-search.ts';
import { planSearch } from '../../src/search/search.service.ts';
import { buildFreshPools, FRESH_KINDS } from './fresh-queries.ts';

const { values: args } = parseArgs({ options: { db: { type: 'string' }, other: { type: 'string' }, 'per-kind': { type: 'string', default: '1000' } } });
type Search = { find(plan: unknown): Promise<unknown>; warmUp(): Promise<void>; nameIndexLoaded(): Promise<void> };
const other = args.other!.replace(/\/$/, '');
const theirs = {
  connect: (await import(`${other}/src/db/connect.ts`)) as typeof import('../../src/db/connect.ts'),
  search: (await import(`${other}/src/search/company-search.ts`)) as typeof import('../../src/search/company-search.ts'),
};
const countries = buildCountryCatalogue();
// The name sample (name-sample.ts) draws its names at random, and which 1,000 of a larger
// candidate set near matches score follows what it advises asking for: each search samples from
// the same seeded sequence, so that both draw the same names.
let seed = 0;
Math.random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const make = async (open: typeof openEngine, create: typeof createCompanySearch) => {
  seed = 28;
  const engine = open(args.db!);
  const search = create({ db: engine.db, seam: engine.seam, maxResults: 10, cacheEntries: 0 }) as unknown as Search;
  await search.warmUp();
  await search.nameIndexLoaded();
  // A name search: the sample is drawn now if warmUp did not draw it.
  await search.find(planSearch(countries, { q: 'anadolu', type: 'name', country: null }));
  return { engine, search };
};
const mine = await make(openEngine, createCompanySearch);
const them = await make(theirs.connect.openEngine, theirs.search.createCompanySearch);
const pools = await buildFreshPools(mine.engine.db, Number(args['per-kind']), new Set());
// The CPU of each side's search (this process's user + system), per kind: the two alternate
// which goes first, query by query, so that each meets the pages the other has read as often.
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const cpu = new Map<string, { theirs: number; mine: number; n: number }>();
let turn = 0;
let same = 0;
let nearMatches = 0;
const differ: string[] = [];
for (const kind of FRESH_KINDS) {
  for (const path of pools.paths[kind]) {
    const params = new URL(path, 'http://x').searchParams;
    const input = { q: params.get('q')!, type: (params.get('type') ?? 'name') as 'name' | 'tax_id', country: params.get('country') };
    const answer = async (s: Search) => {
      try {
        return await s.find(planSearch(countries, input));
      } catch (error) {
        return { error: (error as Error).message };
      }
    };
    const timed = async (s: Search) => {
      const started = cpuMs();
      const out = await answer(s);
      return { out, ms: cpuMs() - started };
    };
    let ta: { out: unknown; ms: number };
    let tb: { out: unknown; ms: number };
    if (turn++ % 2 === 0) {
      ta = await timed(them.search);
      tb = await timed(mine.search);
    } else {
      tb = await timed(mine.search);
      ta = await timed(them.search);
    }
    const a = ta.out;
    const b = tb.out;
    const c = cpu.get(kind) ?? { theirs: 0, mine: 0, n: 0 };
    c.theirs += ta.ms;
    c.mine += tb.ms;
    c.n++;
    cpu.set(kind, c);
    if (isDeepStrictEqual(a, b)) same++;
    else differ.push(`${kind}: ${JSON.stringify(input)}`);
    if (((b as { nearMatches?: unknown[] }).nearMatches?.length ?? 0) > 0) nearMatches++;
  }
}
console.log(`${same} of ${same + differ.length} answers equal (${nearMatches} with near matches shown)`);
for (const [kind, c] of cpu)
  console.log(
    `${kind}: ${c.n} queries, CPU ms a search: theirs ${(c.theirs / c.n).toFixed(3)}, mine ${(c.mine / c.n).toFixed(3)} (${(c.mine / c.theirs).toFixed(2)} ×)`,
  );
for (const d of differ.slice(0, 20)) console.log(`differs: ${d}`);
await mine.engine.close();
await them.engine.close();
process.exitCode = differ.length === 0 ? 0 : 1;
