/**
 * PostgreSQL plans the kept statements (db/prepared.ts) once per connection, not on every run.
 *
 * A named statement is not enough for that: PostgreSQL makes a custom plan for each run's values
 * at first, and keeps doing so when the generic plan's estimate is the dearer one, which it is
 * for every statement here that takes an array (`= ANY($1)`, `unnest($1)`: counted as ten
 * elements in a generic plan, as one to five in a custom plan). So the key's look-up, the group
 * commit's statement and the shown rows were planned afresh on every request: at 10^6 the key's
 * look-up took 0.1 ms to plan and 0.025 ms to run, and the planning was a third of PostgreSQL's
 * CPU for a fresh name (docs/benchmarks.md, "Kept statements planned once").
 *
 * `plan_cache_mode = force_generic_plan` makes a prepared statement use its generic plan from the
 * first run. It is a setting of the connection, and it must not reach the unnamed statements:
 * those are the name searches whose best plan depends on their LIKE pattern, planned for each
 * run's values (as they are under `auto`). So the setting follows the statement: before a kept
 * statement the connection is switched to generic plans, before an unnamed statement with
 * values back to `auto`, each only when the connection is not already so. The hot paths run
 * kept statements only, so a connection switches when a request's statements change kind (a
 * name search's LIKE statements), not on every statement.
 *
 * A setting made in a transaction is undone by its rollback (or by a rollback to a savepoint):
 * after one the connection's mode is unknown, and the next statement sets it again. So is it after
 * any statement that fails: in a transaction the failure aborts it, and its end (a ROLLBACK, or a
 * COMMIT that PostgreSQL turns into one) undoes what was set in it.
 *
 * The setting is the connection's, so it needs the same server connection for every statement:
 * a direct connection or a session pooler. Behind a transaction pooler (PgBouncer's
 * `pool_mode = transaction`) a SET sent outside a transaction stays on whichever server connection
 * the pooler chose and reaches the next client given that connection: another process's name
 * search would then run with a generic plan (a sequential scan at 10^6 instead of its index), or
 * another application's statements. So behind one (RISKLOOKUP_DB_POOLER=transaction, db/pooler.ts)
 * nothing is set, and the kept statements are planned as PostgreSQL chooses (a custom plan on each
 * run: the same answers, about 0.3–0.5 ms more of PostgreSQL's CPU per request).
 */

export type PlanMode = 'generic' | 'auto';

export const SET_GENERIC = 'SET plan_cache_mode = force_generic_plan';
export const SET_AUTO = 'SET plan_cache_mode = auto';

/**
 * Tracks one connection's `plan_cache_mode`. `before(kind, text)` is called as each statement is
 * sent, in the connection's order; it returns the SET to send first, or null.
 */
export function planModeTracker() {
  let mode: PlanMode | 'unknown' = 'unknown';
  return {
    /**
     * @param wanted the mode the statement must run in; null for a statement without values,
     *   which has one plan whatever the mode (BEGIN, COMMIT, a SET, a COPY).
     */
    before(wanted: PlanMode | null, text: string): string | null {
      if (/^\s*rollback\b/i.test(text)) {
        mode = 'unknown';
        return null;
      }
      if (wanted === null || wanted === mode) return null;
      mode = wanted;
      return wanted === 'generic' ? SET_GENERIC : SET_AUTO;
    },
    /**
     * A SET or a statement failed (an aborted transaction whose end undoes what was set in it, a
     * lost connection, a timeout that dropped a queued SET): the mode is unknown.
     */
    failed(): void {
      mode = 'unknown';
    },
    get mode() {
      return mode;
    },
  };
}
