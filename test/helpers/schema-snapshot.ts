/**
 * The schema a database holds, as text to compare with a committed snapshot
 * (test/fixtures/schema.<engine>.txt): SQLite's sqlite_master with each statement as written;
 * on PostgreSQL the columns, constraints, indexes, triggers, functions and extensions.
 */
import { sql } from 'kysely';
import type { Db } from '../../src/db/types.ts';

async function rows(db: Db, query: ReturnType<typeof sql>): Promise<string[]> {
  const result = await query.execute(db);
  return (result.rows as Array<Record<string, unknown>>).map((row) =>
    Object.values(row)
      .map((v) => String(v))
      .join(' | '),
  );
}

async function describeSqlite(db: Db): Promise<string[]> {
  return rows(db, sql`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`);
}

async function describePostgres(db: Db): Promise<string[]> {
  const section = async (title: string, query: ReturnType<typeof sql>) => [`## ${title}`, ...(await rows(db, query))];
  return [
    ...(await section(
      'columns',
      sql`SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
      WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
    )),
    ...(await section(
      'constraints',
      sql`SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
      JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = current_schema() ORDER BY tbl, conname`,
    )),
    ...(await section('indexes', sql`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY tablename, indexname`)),
    ...(await section(
      'triggers',
      sql`SELECT tgrelid::regclass::text AS tbl, tgname, pg_get_triggerdef(t.oid) AS def FROM pg_trigger t
      WHERE NOT t.tgisinternal ORDER BY tbl, tgname`,
    )),
    ...(await section(
      'functions',
      sql`SELECT p.proname, pg_get_functiondef(p.oid) AS def FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = current_schema() AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e') ORDER BY p.proname`,
    )),
    ...(await section('extensions', sql`SELECT extname FROM pg_extension ORDER BY extname`)),
    ...(await section(
      'sequences',
      sql`SELECT sequence_name, data_type FROM information_schema.sequences WHERE sequence_schema = current_schema() ORDER BY sequence_name`,
    )),
  ];
}

export async function describeSchema(db: Db, engine: 'sqlite' | 'postgres'): Promise<string> {
  return `${(engine === 'sqlite' ? await describeSqlite(db) : await describePostgres(db)).join('\n')}\n`;
}
