/** Builds the real application on a test database, with a fixed clock and captured logs. */
import { Writable } from 'node:stream';
import { buildApp } from '../../src/app.ts';
import { parseConfig, type ConfigInput } from '../../src/config.ts';
import { fixedClock } from '../../src/lib/clock.ts';
import { createLogger } from '../../src/lib/logger.ts';
import type { App } from '../../src/http/app-type.ts';
import type { TestDatabase } from './engines.ts';
import { TEST_KEY_RING } from './secrets.ts';

/** 2026-11-21 12:00:00 Turkey time. */
export const NOON_TR = Date.UTC(2026, 10, 21, 9, 0, 0);

export interface TestApp {
  app: App;
  clock: ReturnType<typeof fixedClock>;
  logs: string[];
  close(): Promise<void>;
}

export async function makeTestApp(database: TestDatabase, config: ConfigInput = {}, startMs = NOON_TR): Promise<TestApp> {
  const clock = fixedClock(startMs);
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(String(chunk));
      callback();
    },
  });
  const app = await buildApp({
    keyRing: TEST_KEY_RING,
    config: parseConfig({ databaseUrl: database.url, ...config }, {}),
    engine: database.engine,
    logger: createLogger({ level: 'debug', destination }),
    clock,
  });
  return { app, clock, logs, close: () => app.close() };
}

export function search(app: App, key: string | null, query: string) {
  return app.inject({
    method: 'GET',
    url: `/api/v1/search.php?${query}`,
    headers: key === null ? {} : { 'x-api-key': key },
  });
}
