/**
 * The tax-ID rows of `npm run bench` (issue 28): every request a tax ID nobody asked before on
 * that server, hits (companies drawn at random) and misses (valid VKNs no company has) in turn,
 * so that the search cache never answers and every answer is a company's own look-up. Runs on a
 * server of its own (started by bench.ts), whose cache no other scenario filled.
 */
import { openEngine } from '../../src/db/connect.ts';
import { seededRandom } from '../../src/generate/random.ts';
import { taxIdMisses } from './fresh-queries.ts';
import { runClient, type FreshRow, type FreshRun } from './fresh-scenarios.ts';

/** Hits and misses, `perKind` of each, interleaved, each path once. */
async function taxIdPaths(url: string, perKind: number): Promise<string[]> {
  const engine = openEngine(url);
  try {
    const hits = await engine.db
      .selectFrom('companies')
      .select('tax_id_norm')
      .where('country', '=', 'TR')
      .orderBy((eb) => eb.fn('random'))
      .limit(perKind)
      .execute();
    const taken = new Set(hits.map((h) => `tax ${h.tax_id_norm}`));
    const misses = await taxIdMisses(engine.db, perKind, taken, seededRandom(31));
    const out: string[] = [];
    for (let i = 0; i < Math.max(hits.length, misses.length); i++) {
      if (i < hits.length) out.push(`/api/v1/search.php?type=tax_id&country=TR&q=${hits[i]!.tax_id_norm}`);
      if (i < misses.length) out.push(misses[i]!);
    }
    return out;
  } finally {
    await engine.close();
  }
}

/** One row: tax IDs, hits and misses in turn, none repeated, after a warm-up on others. */
export async function runFreshTaxIds(url: string, run: FreshRun): Promise<FreshRow> {
  const paths = await taxIdPaths(url, run.perKind);
  let next = 0;
  if (run.warmUp > 0) {
    const warm = paths.slice(0, Math.floor(paths.length / 3));
    next = runClient(run, run.warmUp, run.connections, { shared: warm }, false).r.built;
  }
  const list = paths.slice(next);
  const result = runClient(run, run.seconds, run.connections, { shared: list }, true);
  const { r } = result;
  const repeated = Math.max(r.built - r.distinct, r.requests.total + r.errors - r.distinct);
  const odd = Object.entries(r.statuses).filter(([code]) => code !== '200');
  return {
    name: 'fresh: tax IDs, hits and misses in turn',
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
    serverCpuMs: result.serverCpuMs,
    databaseCpuMs: result.databaseCpuMs,
    inputs: `${r.requests.total} answered, ${r.built} inputs taken of ${list.length} (half hits, half misses), ${r.distinct} distinct${repeated > 0 ? ` (**${repeated} repeated**)` : ', none repeated'}${r.exhausted || r.built >= list.length ? ' (**ran out: stopped early**)' : ''}${odd.length > 0 ? `; answers ${odd.map(([c, n]) => `${n} × ${c}`).join(', ')}` : ''}`,
  };
}
