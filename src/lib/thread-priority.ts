/**
 * A background thread gives way to the serving thread: Linux schedules threads one by one, and
 * `setpriority` on a thread's own id lowers that thread only (not the process). Elsewhere, or when
 * the thread's id cannot be read, nothing changes and null is returned.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How much lower than the serving thread (nice steps; 19 is the lowest there is). */
const BELOW_SERVING = 10;

/** The calling thread's id (Linux: `/proc/thread-self` links to `<pid>/task/<tid>`), or null. */
export function ownThreadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/**
 * Lowers the calling thread's scheduling priority 10 nice steps below the process's (nice 0 → 10;
 * a process already started under `nice` stays above it: 5 → 15, at most 19). Returns the thread id
 * it applied to, or null.
 */
export function yieldToServingThread(): number | null {
  const tid = ownThreadId();
  if (tid === null) return null;
  try {
    setPriority(tid, Math.min(19, getPriority(process.pid) + BELOW_SERVING));
    return tid;
  } catch {
    return null;
  }
}
