/**
 * The thread of sqlite-reader.ts: runs the reading statements it is sent on a connection of its
 * own to the serving process's database file, one at a time, and answers each with its rows as
 * one flat array (column names, then the values row after row): a flat array crosses to the
 * serving thread in a fraction of what as many objects would cost there.
 */
import SQLite from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { ReaderAnswer, ReaderData, ReaderQuestion } from './sqlite-reader.ts';

const data = workerData as ReaderData;
const port = parentPort!;
// A reader in WAL mode waits for nobody but a checkpoint's brief lock or a recovery; waiting here
// blocks this thread only.
const database = new SQLite(data.path, { timeout: data.busyTimeoutMs });
// Nothing this connection runs may write (the statements are the serving thread's reads).
database.pragma('query_only = ON');

const STATEMENT_CACHE_SIZE = 200;
const statements = new Map<string, SQLite.Statement>();

function statementOf(sql: string): SQLite.Statement {
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
    statement = database.prepare(sql);
    if (!statement.reader) throw Object.assign(new Error('the reading thread runs statements that return rows only'), { code: 'RISKLOOKUP_NOT_A_READ' });
    statement.raw(true);
    statements.set(sql, statement);
  }
  return statement;
}

function answer(question: ReaderQuestion): ReaderAnswer {
  try {
    const statement = statementOf(question.sql);
    const rows = statement.all(question.parameters) as unknown[][];
    // Read after the run: a statement SQLite prepared again for a changed schema has its new columns only then.
    const names = rows.length === 0 ? [] : statement.columns().map((c) => c.name);
    const values: unknown[] = new Array(rows.length * names.length);
    let k = 0;
    for (const row of rows) for (let i = 0; i < names.length; i++) values[k++] = row[i];
    return { id: question.id, names, values };
  } catch (error) {
    const { message, code } = error as { message?: string; code?: unknown };
    return { id: question.id, error: { message: String(message), ...(typeof code === 'string' ? { code } : {}) } };
  }
}

port.on('message', (message: ReaderQuestion | 'stop') => {
  if (message === 'stop') {
    database.close();
    port.close();
    return;
  }
  port.postMessage(answer(message));
});
