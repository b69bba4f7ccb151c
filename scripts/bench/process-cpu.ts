/** CPU time of processes on this machine, for CPU per request in the benchmarks (Linux /proc). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds a process has used (Linux: /proc/<pid>/stat, user + system), or null. CPU per
 * request barely moves with what else a shared machine is doing, where req/s and p99 do.
 */
const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux the bench runs on
export function cpuSecondsOf(pids: readonly number[]): number | null {
  try {
    let ticks = 0;
    for (const pid of pids) {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * Waits until a server process has finished its start-up work: its CPU over a second is below
 * `idleMs` (the in-memory index of names and, on PostgreSQL, the names' words are built in the
 * background after the server listens: 10–25 s of CPU at 10^6 on a slow machine, which a row
 * measured right after the start counted as its own, e.g. 42 ms of CPU a "tax-ID hit, no cache").
 * Gives up after `maxSeconds` and says so. Returns the seconds waited.
 */
export async function waitUntilIdle(pid: number, options: { idleMs?: number; maxSeconds?: number; label?: string } = {}): Promise<number> {
  const idle = (options.idleMs ?? 50) / 1000;
  const max = options.maxSeconds ?? 180;
  const started = Date.now();
  let before = cpuSecondsOf([pid]);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuSecondsOf([pid]);
    if (now === null || before === null) return (Date.now() - started) / 1000;
    if (now - before < idle) return (Date.now() - started) / 1000;
    before = now;
    if ((Date.now() - started) / 1000 >= max) {
      console.error(`${options.label ?? `process ${pid}`}: still busy after ${max} s of waiting for its start-up; measuring anyway`);
      return max;
    }
  }
}

/**
 * The local PostgreSQL's processes (for its CPU per request); none when it runs elsewhere. With
 * `database`, the backends serving other databases are left out (another helper's work on a
 * shared machine); the server's own processes (checkpointer, WAL writer…) stay.
 */
export function postgresPids(database?: string): number[] {
  if (!existsSync('/proc')) return [];
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') return false;
        if (database === undefined) return true;
        // A backend: `postgres: USER DATABASE HOST(PORT) ACTIVITY` (or `[local]`).
        const backend = /^postgres: (?:[^ ]+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '));
        return backend === null || backend[1] === database;
      } catch {
        return false;
      }
    })
    .map(Number);
}
