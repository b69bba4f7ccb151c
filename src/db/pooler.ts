/**
 * What stands between the processes and PostgreSQL (RISKLOOKUP_DB_POOLER), and so what the server
 * may set on its connections:
 *
 * - `none` (the default): a direct connection. The statement timeout is a startup parameter of
 *   each connection, and the kept statements' plan mode is switched per connection
 *   (db/plan-cache-mode.ts).
 * - `session`: a session pooler (PgBouncer's `pool_mode = session`), which refuses startup
 *   parameters it does not track ("unsupported startup parameter: statement_timeout"). The
 *   timeout is set by a SET on each new connection instead; the server connection is the client's
 *   until it leaves, so the plan mode is switched as on a direct one.
 * - `transaction`: a transaction pooler (`pool_mode = transaction`; PgBouncer 1.21+ with
 *   `max_prepared_statements` for the kept statements). The next transaction may run on another
 *   client's server connection, so the server sets nothing on it: the statement timeout is the
 *   role's or the database's (`ALTER ROLE … SET statement_timeout`, docs/operations.md), and the
 *   plan mode is left as it is. The client still gives up a second after the timeout.
 */
export const POOLERS = ['none', 'session', 'transaction'] as const;
export type Pooler = (typeof POOLERS)[number];

/** RISKLOOKUP_DB_POOLER read: `none` when unset. */
export function poolerOf(raw: string | undefined): { pooler: Pooler } | { problem: string } {
  if (raw === undefined || raw.trim() === '') return { pooler: 'none' };
  const pooler = raw.trim().toLowerCase();
  if ((POOLERS as readonly string[]).includes(pooler)) return { pooler: pooler as Pooler };
  return {
    problem: `the pooler in front of PostgreSQL (RISKLOOKUP_DB_POOLER) must be none (a direct connection; the default), session (a session pooler such as PgBouncer's pool_mode = session) or transaction (a transaction pooler such as pool_mode = transaction), got '${raw}'`,
  };
}

/** Whether the server may keep settings of its own on a connection (the plan mode, the timeout). */
export function ownsConnection(pooler: Pooler): boolean {
  return pooler !== 'transaction';
}
