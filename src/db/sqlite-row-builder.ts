/**
 * Result rows as objects made in JavaScript from raw rows (arrays in column order): SQLite's
 * serving connection's (connect.ts, rowsAsObjectLiterals), its reading thread's (sqlite-reader.ts)
 * and PostgreSQL's kept statements (connect.ts, rowBuilderOf).
 */
import SQLite from 'better-sqlite3';

export type RowBuilder = (raw: unknown[]) => unknown;

/**
 * A function that makes a row object from a raw row (an array in column order) with one object
 * literal, so that every row of a shape shares one hidden class; a name that repeats keeps its
 * last value in its first place, as both drivers' own objects do. The names are written as JSON
 * string literals, which are JavaScript string literals. `__proto__` is written as a computed
 * key, so it is an own property holding the value, as in `pg`'s rows (a plain one would set the
 * prototype).
 */
export function objectLiteralOf(names: readonly string[]): RowBuilder {
  const keys = names.map((name) => (name === '__proto__' ? '["__proto__"]' : JSON.stringify(name)));
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a row builder made from column names, never from values
  return new Function('r', `return {${keys.map((key, i) => `${key}: r[${i}]`).join(', ')}};`) as RowBuilder;
}

/**
 * better-sqlite3's own row objects for a result with a column named `__proto__`: Node 20's build
 * assigns each property in column order, so such a column sets the prototype (when its value is
 * an object); newer builds make the objects whole, with `__proto__` as a property of their own.
 * Which one the installed driver does is asked once. Every other shape gets its object literal.
 */
export function sqliteRowBuilder(names: readonly string[]): RowBuilder {
  if (!names.includes('__proto__') || driverKeepsProtoAsProperty()) return objectLiteralOf(names);
  return (raw) => {
    const row: Record<string, unknown> = {};
    // Reflect.set returns false where the driver's assignment is silently refused (a `length`
    // column when a Buffer became the prototype); a strict-mode assignment would throw.
    for (let i = 0; i < names.length; i++) Reflect.set(row, names[i]!, raw[i]);
    return row;
  };
}

let protoKeptAsProperty: boolean | undefined;
function driverKeepsProtoAsProperty(): boolean {
  if (protoKeptAsProperty === undefined) {
    const probe = new SQLite(':memory:');
    try {
      protoKeptAsProperty = Object.hasOwn(probe.prepare(`SELECT x'01' AS "__proto__"`).get() as object, '__proto__');
    } finally {
      probe.close();
    }
  }
  return protoKeptAsProperty;
}
