/**
 * Queries built and compiled once, run many times. Kysely builds and compiles a query on every
 * call (~80 µs here, more than SQLite takes to answer an indexed look-up), so the hot path of a
 * search keeps its queries compiled: the builder runs once per database and shape with
 * placeholder values, and each call swaps in the real ones.
 */
import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './types.ts';

const MARK = '\u0000rlk-param-';
/**
 * Leads the SQL of every query compiled here (a comment to both engines): PostgreSQL clients
 * keep such a statement prepared on their connection, planned once (db/connect.ts). Parsing
 * and planning took two thirds of PostgreSQL's time for a search (the key look-up alone:
 * 0.45 ms of its 0.5).
 */
export const KEEP_PREPARED = '/* kept prepared */ ';
const placeholder = (i: number) => `${MARK}${i}`;

export type Placeholders = (i: number) => never;

/** Compiled queries of one dialect and plugin set, and the scopes of that set with one more plugin. */
interface CompiledScope<Row> {
  readonly byShape: Map<string, CompiledQuery<Row>>;
  readonly next: WeakMap<object, CompiledScope<Row>>;
}

function scopeIn<Row>(scopes: WeakMap<object, CompiledScope<Row>>, key: object): CompiledScope<Row> {
  let scope = scopes.get(key);
  if (!scope) scopes.set(key, (scope = { byShape: new Map(), next: new WeakMap() }));
  return scope;
}

/**
 * @param build builds the query with `p(0)`, `p(1)`, … where the values go; `shape` says
 *   whatever else the SQL depends on (how many items an IN list has).
 * @param keyOf a cache key for a shape.
 * @returns `run(db, values, shape)`: values[i] goes where `p(i)` stood.
 */
export function preparedQuery<Row, Shape = undefined>(
  build: (db: Db, p: Placeholders, shape: Shape) => Compilable<Row>,
  keyOf: (shape: Shape) => string = () => '',
) {
  // Per dialect, not per Kysely instance: a transaction is a Kysely of its own each time, with the
  // same adapter (and the same SQL). Kept per `db` object, a query run in a transaction was built
  // and compiled on every call (the charge batch's increment: ~80 µs a batch, issue 28).
  // And per plugin set: plugins transform a query when it is compiled, so a Kysely with plugins
  // (`withPlugin`) must not run what was compiled without them; a transaction copies its
  // database's plugin list but keeps the same plugin objects, so it shares their compilations.
  const cache = new WeakMap<object, CompiledScope<Row>>();
  return async (db: Db, values: readonly unknown[], shape?: Shape): Promise<Row[]> => {
    const executor = db.getExecutor();
    let scope = scopeIn(cache, executor.adapter);
    for (const plugin of executor.plugins) scope = scopeIn(scope.next, plugin);
    const byShape = scope.byShape;
    const key = keyOf(shape as Shape);
    let compiled = byShape.get(key);
    if (!compiled) {
      const built = build(db, placeholder as Placeholders, shape as Shape).compile();
      compiled = { ...built, sql: KEEP_PREPARED + built.sql };
      byShape.set(key, compiled);
    }
    const parameters = compiled.parameters.map((v) => (typeof v === 'string' && v.startsWith(MARK) ? values[Number(v.slice(MARK.length))] : v));
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}

/**
 * Runs a query built per call whose SQL text nonetheless repeats (one per shape) and whose plan
 * does not depend on its values, kept prepared like the ones above (PostgreSQL plans it once
 * per connection). Only for such queries: one whose best plan depends on a LIKE pattern must
 * stay unnamed.
 */
export async function runKeptPrepared<Row>(db: Db, query: Compilable<Row>): Promise<Row[]> {
  const compiled = query.compile();
  return (await db.executeQuery<Row>({ ...compiled, sql: KEEP_PREPARED + compiled.sql })).rows;
}

/**
 * Splits `items` into runs whose lengths are powers of two, longest first (13 → 8, 4, 1), so that
 * a many-row statement kept prepared per row count (`preparedQuery`'s shape) has at most
 * log2(max) + 1 shapes, whatever the batch sizes.
 */
export function powerOfTwoRuns<T>(items: readonly T[]): T[][] {
  const runs: T[][] = [];
  let at = 0;
  for (let size = 1 << 30; size >= 1; size >>= 1) {
    while (items.length - at >= size) {
      runs.push(items.slice(at, at + size));
      at += size;
    }
  }
  return runs;
}
