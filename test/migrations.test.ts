/**
 * Migrations are frozen history: each holds its own DDL (src/db/migrations/), so a change to live
 * code cannot change what an old migration creates. An empty database migrated today must hold
 * exactly the committed schema (test/fixtures/schema.<engine>.txt). After a new migration, write
 * the snapshots again with WRITE_SCHEMA_SNAPSHOT=1 and review the difference.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { describeSchema } from './helpers/schema-snapshot.ts';

for (const engine of ENGINES) {
  describe(`migrations [${engine.name}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      await database?.drop();
    });

    test('an empty database migrated to the latest holds exactly the committed schema', async () => {
      const snapshot = new URL(`./fixtures/schema.${engine.name}.txt`, import.meta.url);
      const actual = await describeSchema(database.engine.db, engine.name);
      if (process.env.WRITE_SCHEMA_SNAPSHOT === '1') writeFileSync(snapshot, actual);
      assert.ok(existsSync(snapshot), `no snapshot at ${snapshot.pathname}: run once with WRITE_SCHEMA_SNAPSHOT=1`);
      assert.equal(actual, readFileSync(snapshot, 'utf8'));
    });
  });
}
