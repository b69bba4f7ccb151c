/**
 * At least once across a crash (D32): a process delivering to a receiver that hangs is killed
 * with -9; another process takes the delivery over once its claim (and, on SQLite, the lease)
 * has expired, and the receiver gets every event at least once, each verified with the
 * `standardwebhooks` package. The survivor then drains on SIGTERM and exits 0.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { enqueue, makeEvent, webhookWorld } from './helpers/webhooks.ts';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.ts';
import { TEST_KEY_RING_ENV } from './helpers/secrets.ts';

const SCRIPT = fileURLToPath(new URL('./helpers/delivery-process.ts', import.meta.url));

function startDeliveryProcess(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; stderr: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    env: { ...process.env, ...TEST_KEY_RING_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = setInterval(() => {
      if (stdout.includes('ready')) {
        clearInterval(check);
        resolve({ child, stderr: () => stderr, exited });
      } else if (child.exitCode !== null || Date.now() - started > 30_000) {
        clearInterval(check);
        child.kill('SIGKILL');
        reject(new Error(`the delivery process did not start: ${stderr}`));
      }
    }, 20);
  });
}

for (const engine of ENGINES) {
  describe(`a delivery process killed with -9 [${engine.name}]`, () => {
    let database: TestDatabase;
    let receiver: Receiver;
    before(async () => {
      database = await engine.create();
      receiver = await startReceiver();
    });
    after(async () => {
      await receiver?.close();
      await database?.drop();
    });

    test('another process delivers: every event reaches the receiver at least once, in order after the first', async () => {
      const clock = fixedClock(Date.now());
      const world = webhookWorld(database.engine.db, engine.name, clock, { allowPrivate: true });
      const { admin, memberId } = await world.member('KILL');
      const { secret } = await world.endpoints.registerEndpoint(admin, { url: receiver.url('/kill') });
      const events = Array.from({ length: 5 }, () => makeEvent(clock));
      await enqueue(database.engine.db, world, memberId, events);
      // The first request never gets an answer: the process is killed while it waits.
      receiver.answer = (_r, i) => (i === 0 ? 'hang' : { status: 204 });
      const env = { DATABASE_URL: database.url, RECEIVER_CA: receiver.certificate.certFile };
      const first = await startDeliveryProcess({ ...env, HOLDER: 'doomed' });
      await receiver.waitFor(1);
      first.child.kill('SIGKILL');
      assert.equal(await first.exited, null, 'killed, not exited');
      const row = await database.engine.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', events[0]!.id).executeTakeFirstOrThrow();
      assert.deepEqual([row.state, row.claimed_by], ['delivering', 'doomed'], 'left claimed by the dead process');

      const second = await startDeliveryProcess({ ...env, HOLDER: 'survivor' });
      await receiver.waitFor(6, 20_000).catch((e: Error) => assert.fail(`${e.message}; the survivor said: ${second.stderr()}`));
      const ids = receiver.received.map((r) => r.headers['webhook-id']);
      assert.deepEqual(ids, [events[0]!.id, ...events.map((e) => e.id)], 'the first again, then the rest in order');
      for (const r of receiver.received) new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
      for (let i = 0; i < 50; i++) {
        const states = await database.engine.db.selectFrom('webhook_deliveries').select('state').execute();
        if (states.every((s) => s.state === 'succeeded')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const rows = await database.engine.db.selectFrom('webhook_deliveries').select(['state', 'attempts']).execute();
      assert.deepEqual(
        rows.map((r) => [r.state, r.attempts]),
        events.map(() => ['succeeded', 1]),
        'the killed attempt left no trace but the resend',
      );
      second.child.kill('SIGTERM');
      assert.equal(await second.exited, 0, second.stderr());
      const held = await database.engine.db.selectFrom('job_state').select('name').where('holder', 'is not', null).execute();
      assert.deepEqual(held, [], 'the survivor gave its lease back on SIGTERM');
    });
  });
}
