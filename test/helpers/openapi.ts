import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.ts';
import { parseConfig } from '../../src/config.ts';
import { openEngine } from '../../src/db/connect.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { TEST_KEY_RING } from './secrets.ts';

/** The OpenAPI document of the default configuration, as committed in docs/openapi.json. */
export async function renderOpenApi(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'risklookup-openapi-'));
  const engine = openEngine(`sqlite:${join(dir, 'doc.db')}`);
  try {
    await migrateToLatest(engine);
    const app = await buildApp({ keyRing: TEST_KEY_RING, config: parseConfig({}, {}), engine });
    const doc = (await app.inject({ url: '/api/v1/openapi.json' })).json<unknown>();
    await app.close();
    return `${JSON.stringify(doc, null, 2)}\n`;
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
