/**
 * The headline rows of `npm run bench` (issue 28): every request a query nobody asked before in
 * the run, drawn from the database's own companies (fresh-queries.ts), sent by autocannon from
 * a process of its own (fresh-client.mjs) to a server whose search cache is on, as in service.
 * Each scenario first runs unmeasured on other fresh queries of its kind (the server compiles a
 * path in its first seconds on it). Each row says how many inputs were sent and that none was
 * sent twice.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { openEngine } from '../../src/db/connect.ts';
import { buildFreshPools, FRESH_KINDS, mixedPaths, type FreshKind } from './fresh-queries.ts';
import { cpuSecondsOf, postgresPids } from './process-cpu.ts';

export interface FreshRun {
  /** The server's base URL and process id (for its CPU per request). */
  baseUrl: string;
  pid: number | undefined;
  key: string;
  seconds: number;
  warmUp: number;
  connections: number;
  measurePostgres: boolean;
  /** PostgreSQL: only the backends serving this database are counted (postgresPids). */
  database?: string;
  /** A directory for the clients' input files. */
  work: string;
  /** Queries built per kind (the runs stop early, and say so, when one runs out). */
  perKind: number;
}

export interface FreshRow {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  serverCpuMs: number | null;
  databaseCpuMs: number | null;
  /** Inputs sent, and the check that none was sent twice. */
  inputs: string;
}

type ClientResult = {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
  built: number;
  distinct: number;
  exhausted: boolean;
  statuses: Record<string, number>;
};

const CLIENT = new URL('./fresh-client.mjs', import.meta.url).pathname;

export function runClient(run: FreshRun, seconds: number, connections: number, lists: { shared: string[] } | { perConnection: string[][] }, measure: boolean) {
  if (('shared' in lists ? lists.shared : lists.perConnection.flat()).length < connections)
    throw new Error('fresh-scenarios: no inputs left (raise --fresh-pool)');
  const file = `${run.work}/fresh-inputs.json`;
  writeFileSync(file, JSON.stringify({ url: run.baseUrl, key: run.key, connections, seconds, ...lists }));
  const databasePids = measure && run.measurePostgres ? postgresPids(run.database) : [];
  const cpu = () => [measure && run.pid !== undefined ? cpuSecondsOf([run.pid]) : null, databasePids.length > 0 ? cpuSecondsOf(databasePids) : null];
  const [server0, database0] = cpu();
  const json = execFileSync(process.execPath, [CLIENT, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 });
  const [server1, database1] = cpu();
  const r = JSON.parse(json) as ClientResult;
  const perRequest = (a: number | null | undefined, b: number | null | undefined) =>
    a == null || b == null || r.requests.total === 0 ? null : ((b - a) * 1000) / r.requests.total;
  return { r, serverCpuMs: perRequest(server0, server1), databaseCpuMs: perRequest(database0, database1) };
}

/** Runs the fresh scenarios against one server; pools come from the database at `url`. */
export async function runFreshScenarios(url: string, run: FreshRun): Promise<FreshRow[]> {
  const engine = openEngine(url);
  const pools = await buildFreshPools(engine.db, run.perKind, new Set()).finally(() => engine.close());
  // The mix of the last scenario draws on 40 % of each kind's pool, kept apart from the start.
  const forMix = Object.fromEntries(FRESH_KINDS.map((k) => [k, pools.paths[k].slice(Math.floor(pools.paths[k].length * 0.6))])) as Record<FreshKind, string[]>;
  for (const k of FRESH_KINDS) pools.paths[k] = pools.paths[k].slice(0, Math.floor(pools.paths[k].length * 0.6));
  const used = Object.fromEntries(FRESH_KINDS.map((k) => [k, 0])) as Record<FreshKind, number>;
  const rest = (kind: FreshKind) => pools.paths[kind].slice(used[kind]);
  const rows: FreshRow[] = [];
  const row = (name: string, result: ReturnType<typeof runClient>, pool: number): FreshRow => {
    const { r } = result;
    // Every request sent took a path of its own: sent ≤ distinct paths taken.
    const sent = r.requests.total + r.errors;
    const repeated = Math.max(r.built - r.distinct, sent - r.distinct);
    const odd = Object.entries(r.statuses).filter(([code]) => code !== '200');
    return {
      name,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors,
      non2xx: r.non2xx,
      serverCpuMs: result.serverCpuMs,
      databaseCpuMs: result.databaseCpuMs,
      inputs: `${r.requests.total} answered, ${r.built} inputs taken of ${pool}, ${r.distinct} distinct${repeated > 0 ? ` (**${repeated} repeated**)` : ', none repeated'}${r.exhausted || r.built >= pool ? ' (**ran out: stopped early**)' : ''}${odd.length > 0 ? `; answers ${odd.map(([c, n]) => `${n} × ${c}`).join(', ')}` : ''}`,
    };
  };
  // Several kinds, one connection each its own mix: every path handed out counts as used.
  const mixed = (kinds: readonly FreshKind[], connections: number, seconds: number, measure: boolean) => {
    const remaining = Object.fromEntries(FRESH_KINDS.map((k) => [k, kinds.includes(k) ? rest(k) : []])) as Record<FreshKind, string[]>;
    const total = kinds.reduce((s, k) => s + remaining[k].length, 0);
    // Half of what is left for a warm-up, half for the measurement.
    const perConnection = Math.floor(total / 2 / connections);
    const lists =
      kinds.length === FRESH_KINDS.length
        ? mixedPaths(remaining, connections, perConnection)
        : [interleave(kinds.map((k) => remaining[k])).slice(0, perConnection * connections)];
    const result = runClient(run, seconds, connections, connections === 1 ? { shared: lists[0]! } : { perConnection: lists }, measure);
    // One connection takes its list in order: what it took is used. Several: all handed out is.
    const taken = new Set(connections === 1 ? lists[0]!.slice(0, result.r.built) : lists.flat());
    for (const k of kinds) used[k] += remaining[k].filter((p) => taken.has(p)).length;
    return { result, pool: lists.flat().length };
  };
  const single = (kind: FreshKind, seconds: number, measure: boolean) => {
    // A warm-up takes at most half of what is left.
    const list = measure ? rest(kind) : rest(kind).slice(0, Math.ceil(rest(kind).length / 2));
    const result = runClient(run, seconds, run.connections, { shared: list }, measure);
    used[kind] += result.r.built;
    return { result, pool: list.length };
  };
  const nameKinds = FRESH_KINDS.filter((k) => !k.startsWith('tax-ID'));
  // One fresh name at a time on a server doing nothing else: a name search's own time.
  if (run.warmUp > 0) mixed(nameKinds, 1, run.warmUp, false);
  const alone = mixed(nameKinds, 1, run.seconds, true);
  rows.push(row('fresh names, one at a time (1 connection)', alone.result, alone.pool));
  for (const kind of nameKinds) {
    if (run.warmUp > 0) single(kind, run.warmUp, false);
    const measured = single(kind, run.seconds, true);
    rows.push(row(`fresh: ${kind}`, measured.result, measured.pool));
  }
  pools.paths = forMix;
  for (const k of FRESH_KINDS) used[k] = 0;
  if (run.warmUp > 0) mixed(FRESH_KINDS, run.connections, run.warmUp, false);
  const all = mixed(FRESH_KINDS, run.connections, run.seconds, true);
  rows.push(row(`fresh: ${run.connections} connections, each its own mix of names and tax IDs`, all.result, all.pool));
  return rows;
}

/** One from each list in turn. */
function interleave(lists: readonly string[][]): string[] {
  const out: string[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) out.push(l[i]!);
  return out;
}
