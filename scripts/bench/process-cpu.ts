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
