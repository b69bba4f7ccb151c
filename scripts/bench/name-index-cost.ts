// `node --import tsx scripts/bench/name-index-cost.ts --db URL --lists FILE [--rounds 6] [--baseline DIR]`:
// the CPU a name query spends in the in-memory index of names (issue 28): matchAll (the
// candidates) and rankMatches (D8's order of the first 11), per kind of fresh query (the lists
// fresh-cpu.ts writes), with how many names each matched. In process: no HTTP, no statement.
// `--baseline DIR`: DIR holds another version's visible-names.ts and name-rank-order.ts (their
// imports made absolute); both index the same rows and run in alternate rounds (A B B A …).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildCountryCatalogue } from '../../src/countries/catalogue.ts';
import { openEngine } from '../../src/db/connect.ts';
import * as rankOrder from '../../src/search/name-rank-order.ts';
import { MEMORY_CANDIDATE_CAP, planSearch } from '../../src/search/search.service.ts';
import { readVisibleNames } from '../../src/search/visible-names.repository.ts';
import * as visibleNames from '../../src/search/visible-names.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    lists: { type: 'string' },
    rounds: { type: 'string', default: '6' },
    baseline: { type: 'string' },
    // Matches ranked in memory at most (search.service.ts's cap unless given).
    cap: { type: 'string' },
  },
});
type Version = { name: string; names: typeof visibleNames; rank: typeof rankOrder };
const versions: Version[] = [{ name: 'this', names: visibleNames, rank: rankOrder }];
if (args.baseline) {
  versions.unshift({
    name: 'baseline',
    names: (await import(`${args.baseline}/visible-names.ts`)) as typeof visibleNames,
    rank: (await import(`${args.baseline}/name-rank-order.ts`)) as typeof rankOrder,
  });
}
const engine = openEngine(args.db!);
const builders = versions.map((v) => new v.names.VisibleNamesBuilder());
for (let after = 0; ;) {
  const rows = await readVisibleNames(engine.db, after, 20_000);
  for (const r of rows) for (const b of builders) b.add(r);
  if (rows.length < 20_000) break;
  after = rows[rows.length - 1]!.id;
}
await engine.close();
const indexes = builders.map((b) => b.build());
const countries = buildCountryCatalogue();
const lists = JSON.parse(readFileSync(args.lists!, 'utf8')) as Record<string, string[]>;
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const rounds = Number(args.rounds);
const cap = args.cap ? Number(args.cap) : MEMORY_CANDIDATE_CAP;
const order = Array.from({ length: rounds }, (_, i) => (versions.length === 1 ? 0 : [0, 1, 1, 0][i % 4]!));
console.log(
  `| kind | queries | ${versions.map((v) => `${v.name}: matchAll · rankMatches ms/query`).join(' | ')} | matches: median | p90 | max | over the cap (database) |`,
);
console.log(`|---|---|${versions.map(() => '---|').join('')}---|---|---|---|`);
for (const [kind, paths] of Object.entries(lists)) {
  const plans = paths.flatMap((path) => {
    const p = new URL(path, 'http://x').searchParams;
    const plan = planSearch(countries, { q: p.get('q')!, type: 'name', country: p.get('country') });
    return plan.kind === 'name' ? [plan] : [];
  });
  const spent = versions.map(() => ({ match: 0, rank: 0, n: 0 }));
  const counts: number[] = [];
  let nulls = 0;
  // A first round of each, unmeasured (compilation), then the alternating ones.
  for (const [round, v] of [...versions.map((_, i) => i), ...order].entries()) {
    const { rankMatches } = versions[v]!.rank;
    const index = indexes[v]!;
    for (const plan of plans) {
      const t0 = cpu();
      const matches = index.matchAll([...plan.indexedWords, ...plan.otherWords], plan.country, cap);
      const t1 = cpu();
      if (matches) rankMatches(matches, plan.core, 11);
      const t2 = cpu();
      if (round === 0) {
        if (matches) counts.push(matches.length);
        else nulls++;
      }
      if (round < versions.length) continue;
      spent[v]!.match += t1 - t0;
      spent[v]!.rank += t2 - t1;
      spent[v]!.n++;
    }
  }
  counts.sort((a, b) => a - b);
  const q = (x: number) => counts[Math.min(counts.length - 1, Math.floor(counts.length * x))] ?? 0;
  const cells = spent.map((s) => `${(s.match / s.n).toFixed(3)} · ${(s.rank / s.n).toFixed(3)}`);
  console.log(`| ${kind} | ${plans.length} | ${cells.join(' | ')} | ${q(0.5)} | ${q(0.9)} | ${counts[counts.length - 1] ?? 0} | ${nulls} |`);
}
