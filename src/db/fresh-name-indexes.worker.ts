/**
 * The thread that builds a fresh SQLite load's two name indexes of every company
 * (fresh-name-indexes.ts) in a database file of its own. While the load's writing thread inserts
 * the rows, it only keeps each company's id, `name_key` and `name_core` in a table of its own
 * (cheap: the load's two threads have the cores then); when told that the rows are all in, it
 * builds each index from that table with FTS5's `rebuild`, as the load itself would from
 * `companies`, and merges it into one segment — while the load's thread builds its other indexes.
 *
 * Messages in: `{ rows: [firstId, keys..., cores...] }` (consecutive ids), then `{ finish: true }`;
 * out: `{ built: true }` once the indexes are built and committed, or `{ error }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { SIDE_CONTENT_TABLE, type SideIndexDefinition } from './fresh-name-indexes.ts';

const data = workerData as { path: string; indexes: SideIndexDefinition[]; buildSettings: Record<string, number> };

/** Rows a statement (as the load's own inserts: bulk-writer.ts). */
const ROWS_A_STATEMENT = 64;

const database = new SQLite(data.path);
// A scratch file: nothing to keep if the process dies (the load then rolls back anyway). Its
// journal in memory (journal_mode = OFF is refused in better-sqlite3's defensive mode): it holds
// only the few pages the file had before the transaction began.
database.pragma('journal_mode = MEMORY');
database.pragma('synchronous = OFF');
database.pragma('cache_size = -32768');
database.exec(`CREATE TABLE ${SIDE_CONTENT_TABLE} (id INTEGER PRIMARY KEY, name_key TEXT NOT NULL, name_core TEXT NOT NULL)`);
for (const index of data.indexes) {
  database.exec(index.sideSql);
  for (const [name, value] of Object.entries(data.buildSettings)) {
    database.exec(`INSERT INTO ${index.table} (${index.table}, rank) VALUES ('${name}', ${Math.trunc(value)})`);
  }
}
database.exec('BEGIN');

const statements = new Map<number, SQLite.Statement>();
function insertFor(rows: number): SQLite.Statement {
  let statement = statements.get(rows);
  if (!statement) {
    const values = Array<string>(rows).fill('(?, ?, ?)').join(', ');
    statements.set(rows, (statement = database.prepare(`INSERT INTO ${SIDE_CONTENT_TABLE} (id, name_key, name_core) VALUES ${values}`)));
  }
  return statement;
}

function add(wire: ReadonlyArray<string | number>): void {
  const firstId = wire[0] as number;
  const count = (wire.length - 1) / 2;
  for (let at = 0; at < count;) {
    const run = Math.min(ROWS_A_STATEMENT, count - at);
    const values = new Array<string | number>(3 * run);
    for (let r = 0; r < run; r++) {
      values[3 * r] = firstId + at + r;
      values[3 * r + 1] = wire[1 + at + r]!;
      values[3 * r + 2] = wire[1 + count + at + r]!;
    }
    insertFor(run).run(values);
    at += run;
  }
}

parentPort!.on('message', (message: { rows?: Array<string | number>; finish?: true }) => {
  try {
    if (message.rows) return add(message.rows);
    for (const index of data.indexes) {
      database.exec(`INSERT INTO ${index.table} (${index.table}) VALUES ('rebuild')`);
      database.exec(`INSERT INTO ${index.table} (${index.table}) VALUES ('optimize')`);
    }
    database.exec('COMMIT');
    database.close();
    parentPort!.postMessage({ built: true });
  } catch (error) {
    parentPort!.postMessage({ error });
  }
});
