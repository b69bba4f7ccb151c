/** Audit retention: old audit records are deleted in small batches (D21 keeps, this bounds). */
import { betweenBatches } from '../lib/next-turn.ts';
import type { Actor } from '../actors/actor.ts';
import type { Clock } from '../lib/clock.ts';
import type { Db } from '../db/types.ts';
import { DomainError } from '../lib/errors.ts';

export const DAY_MS = 86_400_000;
const BATCH = 5000;

/**
 * Deletes audit records older than `ageMs`; returns how many. Small batches keep locks short; an
 * aborted `signal` stops it between two batches (a draining server), the rest left for next time.
 */
async function purgeAudit(db: Db, clock: Clock, ageMs: number, signal?: AbortSignal): Promise<number> {
  return purgeAuditBefore(db, clock.now() - ageMs, signal);
}

/** Deletes audit records from before `cutoff` (epoch ms); returns how many. */
export async function purgeAuditBefore(db: Db, cutoff: number, signal?: AbortSignal): Promise<number> {
  let total = 0;
  for (;;) {
    await betweenBatches(signal);
    const batch = db.selectFrom('audit_log').select('id').where('at', '<', cutoff).limit(BATCH);
    const result = await db.deleteFrom('audit_log').where('id', 'in', batch).executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

export const DAYS = (n: number) => n * DAY_MS;

/** The audit trail's purge by age (the CLI's `audit purge`), built by the composition root (src/services.ts). */
export function createAuditRetention(deps: { readonly db: Db; readonly clock: Clock }) {
  return {
    /** Deletes the audit records older than `olderThanMs`; returns how many. An operator or the CLI. */
    purge: async (actor: Actor, input: { olderThanMs: number }, signal?: AbortSignal) => {
      if (actor.kind !== 'operator' && actor.kind !== 'cli')
        throw new DomainError('forbidden', 'only an active operator may do this', { code: 'actor.not_operator' });
      return purgeAudit(deps.db, deps.clock, input.olderThanMs, signal);
    },
  };
}
