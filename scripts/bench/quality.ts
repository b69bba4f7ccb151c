// `npm run bench:quality`: how well name search forgives how members type (issue 11). Loads the
// quality set (quality-names.ts) into a fresh database per engine, searches each sampled company
// the ways members type it, and prints recall@10 and rank 1 per variant for `results`; for damaged
// variants also how often the company is in results or near matches (D25) and first there; and
// for names of no company, how many near matches come back and how similar. Writes the tables to
// docs/benchmarks.md between the quality markers.
//
//   npm run bench:quality -- [--companies 20000] [--sample 1000] [--engines sqlite,postgres] [--no-write]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildCountryCatalogue } from '../../src/countries/catalogue.ts';
import { openEngine, type Engine } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { vknCheckDigit } from '../../src/generate/check-digits.ts';
import { seededRandom } from '../../src/generate/random.ts';
import { importLines } from '../../src/import/import.service.ts';
import { fixedClock } from '../../src/lib/clock.ts';
import { AppError } from '../../src/lib/errors.ts';
import { DEFAULT_NEAR_MATCH_THRESHOLD } from '../../src/search/near-match-score.ts';
import { NameSample } from '../../src/search/name-sample.ts';
import { VisibleNamesKeeper } from '../../src/search/visible-names-keeper.ts';
import { NameVocabulary } from '../../src/search/name-vocabulary.ts';
import { planSearch, runSearch, type SearchDeps } from '../../src/search/search.service.ts';
import { absentNames, qualityCompanies, VARIANTS } from './quality-names.ts';

const { values: args } = parseArgs({
  options: {
    companies: { type: 'string', default: '20000' },
    sample: { type: 'string', default: '1000' },
    absent: { type: 'string', default: '1000' },
    engines: { type: 'string', default: 'sqlite' },
    'no-write': { type: 'boolean', default: false },
  },
});
const ROOT = new URL('../../', import.meta.url).pathname;
const PG_ADMIN = process.env.BENCH_PG_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const countries = buildCountryCatalogue();
const THRESHOLDS = [0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9];

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: PG_ADMIN });
  await client.connect();
  await client.query(text).finally(() => client.end());
}

async function freshEngine(kind: string): Promise<{ engine: Engine; drop: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'risklookup-quality-'));
    const engine = openEngine(`sqlite:${join(dir, 'quality.db')}`);
    return {
      engine,
      drop: async () => {
        await engine.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `risklookup_quality_${process.pid}`;
  await adminQuery(`DROP DATABASE IF EXISTS ${name}`);
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  const engine = openEngine(url.toString());
  return {
    engine,
    drop: async () => {
      await engine.close();
      await adminQuery(`DROP DATABASE ${name}`);
    },
  };
}

const companies = qualityCompanies(Number(args.companies));
const taxIds = companies.map((_, i) => {
  const stem = String(100_000_000 + i * 37);
  return stem + vknCheckDigit(stem);
});

interface Answer {
  results: string[];
  near: Array<{ taxId: string; similarity: number }>;
  refused: boolean;
}
interface Query {
  variant: string;
  target: string | null;
  q: string;
}

function queries(): Query[] {
  const r = seededRandom(7);
  const out: Query[] = [];
  const step = companies.length / Number(args.sample);
  for (let k = 0; k < Number(args.sample); k++) {
    const i = Math.floor(k * step);
    for (const [variant, { make }] of Object.entries(VARIANTS)) {
      const q = make(companies[i]!, r);
      if (q !== null) out.push({ variant, target: taxIds[i]!, q });
    }
  }
  for (const q of absentNames(companies, Number(args.absent))) out.push({ variant: 'names of no company', target: null, q });
  return out;
}

async function answer(deps: SearchDeps, q: string): Promise<Answer> {
  try {
    const outcome = await runSearch(deps, planSearch(countries, { q, type: 'name', country: null }));
    return {
      results: outcome.results.map((c) => c.tax_id),
      near: (outcome.nearMatches ?? []).map((m) => ({ taxId: m.tax_id, similarity: m.similarity })),
      refused: false,
    };
  } catch (error) {
    if (error instanceof AppError) return { results: [], near: [], refused: true };
    throw error;
  }
}

async function runEngine(kind: string) {
  const { engine, drop } = await freshEngine(kind);
  try {
    await migrateToLatest(engine);
    const r = seededRandom(3);
    const lines = companies.map((c, i) =>
      JSON.stringify({
        company_name: c.name,
        tax_id: taxIds[i],
        country: 'TR',
        city: 'İstanbul',
        reports: Array.from({ length: 1 + r.int(4) }, (_, j) => ({
          ref: `Q-${i}-${j}`,
          type: 'enforcement_plain',
          status: 'approved',
          filed_at: '2026-01-05 10:00:00',
          description: 'quality set',
        })),
      }),
    );
    await importLines(engine, lines, 'quality', { countries, clock: fixedClock(Date.UTC(2026, 5, 1)) });
    const names = new NameSample(); // as the server does (company-search.ts)
    // The in-memory index of names, loaded, as a serving process has it (visible-names.ts).
    const visibleNames = new VisibleNamesKeeper(engine.db, engine.seam);
    visibleNames.start();
    await visibleNames.loaded();
    const deps: SearchDeps = { db: engine.db, seam: engine.seam, maxResults: 10, names, vocabulary: new NameVocabulary(), nearMatchThreshold: 0, visibleNames };
    const started = Date.now();
    const all = queries();
    const answers: Array<Query & Answer> = [];
    for (const query of all) answers.push({ ...query, ...(await answer(deps, query.q)) });
    return { kind, answers, msPerQuery: (Date.now() - started) / all.length };
  } finally {
    await drop();
  }
}

const pct = (n: number, d: number) => (d === 0 ? '–' : (n / d).toFixed(3));
const above = (a: Answer, t: number) => a.near.filter((m) => m.similarity >= t);

function table(answers: Array<Query & Answer>, t: number): string[] {
  const lines = ['| variant | queries | recall@10 (results) | rank 1 (results) | in results or near matches | first there |', '|---|---|---|---|---|---|'];
  for (const [variant, { kind }] of Object.entries(VARIANTS)) {
    const rows = answers.filter((a) => a.variant === variant);
    const inResults = rows.filter((a) => a.results.includes(a.target!)).length;
    const first = rows.filter((a) => a.results[0] === a.target).length;
    const found = rows.filter((a) => a.results.includes(a.target!) || above(a, t).some((m) => m.taxId === a.target)).length;
    const firstThere = rows.filter((a) => (a.results.length > 0 ? a.results[0] === a.target : above(a, t)[0]?.taxId === a.target)).length;
    const damaged = kind === 'damaged';
    lines.push(
      `| ${variant} (${kind}) | ${rows.length} | ${pct(inResults, rows.length)} | ${pct(first, rows.length)} | ${damaged ? pct(found, rows.length) : ''} | ${damaged ? pct(firstThere, rows.length) : ''} |`,
    );
  }
  return lines;
}

function absentSummary(answers: Array<Query & Answer>, t: number): string {
  const rows = answers.filter((a) => a.target === null && a.results.length === 0 && !a.refused);
  const withNear = rows.filter((a) => above(a, t).length > 0);
  const sims = withNear.flatMap((a) => above(a, t).map((m) => m.similarity)).sort((x, y) => x - y);
  const q = (p: number) => (sims.length === 0 ? '–' : sims[Math.min(sims.length - 1, Math.floor(p * sims.length))]!.toFixed(2));
  const count = withNear.reduce((s, a) => s + above(a, t).length, 0);
  return `${rows.length} names of no company that D8 finds nothing for: ${withNear.length} (${pct(withNear.length, rows.length)}) get near matches, ${count} in all (${(count / Math.max(1, rows.length)).toFixed(2)} a query); similarity median ${q(0.5)}, p90 ${q(0.9)}, max ${sims.length ? sims[sims.length - 1]!.toFixed(2) : '–'}.`;
}

function sweep(answers: Array<Query & Answer>): string[] {
  const damaged = answers.filter((a) => a.target !== null && VARIANTS[a.variant]!.kind === 'damaged' && a.results.length === 0);
  const absent = answers.filter((a) => a.target === null && a.results.length === 0 && !a.refused);
  const lines = ['| threshold | damaged, no result: company in near matches | first there | names of no company with near matches |', '|---|---|---|---|'];
  for (const t of THRESHOLDS) {
    const found = damaged.filter((a) => above(a, t).some((m) => m.taxId === a.target)).length;
    const first = damaged.filter((a) => above(a, t)[0]?.taxId === a.target).length;
    const noise = absent.filter((a) => above(a, t).length > 0).length;
    lines.push(
      `| ${t.toFixed(2)}${t === DEFAULT_NEAR_MATCH_THRESHOLD ? ' (default)' : ''} | ${pct(found, damaged.length)} | ${pct(first, damaged.length)} | ${pct(noise, absent.length)} |`,
    );
  }
  return lines;
}

const out: string[] = [
  `Generated by \`npm run bench:quality -- --companies ${companies.length} --sample ${args.sample}\` on ${new Date().toISOString().slice(0, 10)}: ` +
    `${companies.length} generated Turkish company names (scripts/bench/quality-names.ts, distinct cores, 1–4 visible reports each), ` +
    `${args.sample} of them searched in every variant that applies, through the search service; near-match threshold ${DEFAULT_NEAR_MATCH_THRESHOLD} (the default).`,
  '',
];
for (const kind of args.engines.split(',')) {
  const { answers, msPerQuery } = await runEngine(kind);
  out.push(`### ${kind} (${msPerQuery.toFixed(2)} ms a query)`, '', ...table(answers, DEFAULT_NEAR_MATCH_THRESHOLD), '');
  out.push(absentSummary(answers, DEFAULT_NEAR_MATCH_THRESHOLD), '', 'The threshold, measured:', '', ...sweep(answers), '');
  console.error(`${kind} done`);
}
const text = out.join('\n');
console.log(text);
const START = '<!-- quality:start -->';
const END = '<!-- quality:end -->';
if (!args['no-write']) {
  const path = `${ROOT}docs/benchmarks.md`;
  const doc = readFileSync(path, 'utf8');
  const next = doc.includes(START)
    ? doc.slice(0, doc.indexOf(START)) + `${START}\n${text}\n${END}` + doc.slice(doc.indexOf(END) + END.length)
    : `${doc.trimEnd()}\n\n## Name search quality (issue 11, D8, D25)\n\n${START}\n${text}\n${END}\n`;
  writeFileSync(path, next);
}
