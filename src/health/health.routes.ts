/**
 * D36: `GET /healthz` (the process is up and not draining) and `GET /readyz` (also: the
 * database answers within 1 s and every migration this program knows has run). On the main
 * port for load balancers and orchestrators, without a key, outside admission, quota and the
 * anonymous allowance (app.ts exempts HEALTH_PATHS), and saying nothing but `ok` or the name of
 * the check that failed: `draining`, `database`, `migrations`.
 */
import { sql } from 'kysely';
import type { FastifyReply } from 'fastify';
import type { App } from '../http/app-type.ts';
import type { Engine } from '../db/connect.ts';
import { pendingMigrations } from '../db/migrate.ts';

export const HEALTHZ_PATH = '/healthz';
export const READYZ_PATH = '/readyz';
export const HEALTH_PATHS = [HEALTHZ_PATH, READYZ_PATH] as const;

/** Set by the server on SIGTERM (serve/server.ts): from then on health checks answer 503. */
export interface Lifecycle {
  draining: boolean;
}

/** The readiness check's budget for the database (D36: it answers within 1 s). */
export const READY_TIMEOUT_MS = 1000;

type Check = 'draining' | 'database' | 'migrations';

function answer(reply: FastifyReply, failed: Check | null) {
  return reply
    .code(failed === null ? 200 : 503)
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send(`${failed ?? 'ok'}\n`);
}

/** Resolves to what `work` gives, or to `fallback` after `ms` (the work is not cancelled; its result is dropped). */
function within<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  return Promise.race([work.catch(() => fallback), late]).finally(() => clearTimeout(timer));
}

/** The first readiness check that fails, or null. */
async function failedCheck(engine: Engine, lifecycle: Lifecycle): Promise<Check | null> {
  if (lifecycle.draining) return 'draining';
  const database = within(
    sql`SELECT 1`.execute(engine.db).then(() => true),
    READY_TIMEOUT_MS,
    false,
  );
  const migrations = within(
    pendingMigrations(engine).then((pending) => pending.length === 0),
    READY_TIMEOUT_MS,
    null,
  );
  if (!(await database)) return 'database';
  return (await migrations) === true ? null : 'migrations';
}

export function registerHealthRoutes(app: App, deps: { engine: Engine; lifecycle: Lifecycle }) {
  const hidden = { schema: { hide: true } };
  app.get(HEALTHZ_PATH, hidden, (_request, reply) => answer(reply, deps.lifecycle.draining ? 'draining' : null));
  app.get(READYZ_PATH, hidden, async (_request, reply) => answer(reply, await failedCheck(deps.engine, deps.lifecycle)));
}
