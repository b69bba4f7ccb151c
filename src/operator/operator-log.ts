/**
 * The operator log (D30): who did what to which record, with the record before and after, for
 * every console action. Append-only: migration 0004 makes the database refuse updates and
 * deletes. Written in the transaction of the action it records, so neither exists without the other.
 */
import type { Db } from '../db/types.ts';
import { requireOperator } from '../reports/acting-user.ts';
import type { Actor } from '../actors/actor.ts';
import { DomainError } from '../lib/errors.ts';

/**
 * The log's `user_id` and `actor` for an operator's action: a signed-in operator (checked in the
 * action's transaction), or the CLI (`cli:<shell user>`, no user id: the machine's own access
 * control stands for the operator check). Any other actor, or a user who is not an active
 * operator, is refused (forbidden).
 */
export async function operatorIdentity(db: Db, actor: Actor): Promise<{ userId: number | null; label: string }> {
  if (actor.kind === 'cli') return { userId: null, label: `cli:${actor.user}` };
  if (actor.kind !== 'operator') throw new DomainError('forbidden', 'only an active operator may do this', { code: 'actor.not_operator' });
  return { userId: actor.userId, label: (await requireOperator(db, actor.userId)).label };
}

export interface OperatorLogEntry {
  at: number;
  /** The operator's user id; null for an action outside the portal (a script). */
  userId: number | null;
  /** Readable: the operator's email. */
  actor: string;
  /** `report.approve`, `member.set_status`, … */
  action: string;
  /** `report:42`, `member:M-1001`, … */
  target: string;
  before: unknown;
  after: unknown;
}

export interface OperatorLogRecord extends OperatorLogEntry {
  id: number;
}

const toJson = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

export async function appendOperatorLog(db: Db, entry: OperatorLogEntry): Promise<void> {
  await db
    .insertInto('operator_log')
    .values({
      at: entry.at,
      user_id: entry.userId,
      actor: entry.actor,
      action: entry.action,
      target: entry.target,
      before_json: toJson(entry.before),
      after_json: toJson(entry.after),
    })
    .execute();
}

/** Newest first; `beforeId` pages back from an earlier page's last id. */
export async function listOperatorLog(db: Db, options: { limit?: number; beforeId?: number } = {}): Promise<OperatorLogRecord[]> {
  let query = db
    .selectFrom('operator_log')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(Math.min(Math.max(options.limit ?? 100, 1), 1000));
  if (options.beforeId !== undefined) query = query.where('id', '<', options.beforeId);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: Number(r.id),
    at: Number(r.at),
    userId: r.user_id === null ? null : Number(r.user_id),
    actor: r.actor,
    action: r.action,
    target: r.target,
    before: r.before_json === null ? null : (JSON.parse(r.before_json) as unknown),
    after: r.after_json === null ? null : (JSON.parse(r.after_json) as unknown),
  }));
}
