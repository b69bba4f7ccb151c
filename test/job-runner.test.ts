/**
 * The background-work runner (src/jobs/) on both engines with a fake clock: two runners on one
 * database stand for two server processes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, type TestDatabase } from './helpers/engines.ts';
import { captureLog, gate, secondProcess, settledSoon } from './helpers/jobs.ts';
import { fixedClock } from '../src/lib/clock.ts';
import { createJobRunner, SQLITE_LEASE, type JobRunner } from '../src/jobs/job-runner.ts';
import { dailyAt, every } from '../src/jobs/schedule.ts';
import type { PeriodicJob, PeriodicRun, QueueJob } from '../src/jobs/job-types.ts';
import type { Engine } from '../src/db/connect.ts';

/** 2026-11-21 HH:MM Turkey time. */
const tr = (day: number, hour: number, minute = 0) => Date.UTC(2026, 10, day, hour - 3, minute);
const HOUR = 3_600_000;
/** Ticks are driven by the tests, never by the runner's own timer. */
const MANUAL = { pollMs: 3_600_000, leaseMs: 30_000, failureRetryMs: 60_000 };

function recordingJob(name: string, schedule: PeriodicJob['schedule'], body?: (run: PeriodicRun) => Promise<void>) {
  const runs: number[] = [];
  const job: PeriodicJob = {
    name,
    schedule,
    async run(run) {
      runs.push(run.scheduledFor);
      await body?.(run);
    },
  };
  return { job, runs };
}

for (const engine of ENGINES) {
  describe(`background-work runner [${engine.name}]`, () => {
    let database: TestDatabase;
    const others: Engine[] = [];
    before(async () => {
      database = await engine.create();
    });
    after(async () => {
      for (const other of others) await other.close().catch(() => {});
      await database?.drop();
    });
    const open = () => {
      const other = secondProcess(database);
      others.push(other);
      return other;
    };
    const runnerOn = (db: Engine, clock: ReturnType<typeof fixedClock>, holder: string, settings = MANUAL): JobRunner =>
      createJobRunner({ db: db.db, engineKind: engine.name, clock, log: captureLog(), holder, settings });
    const tickBoth = async (a: JobRunner, b: JobRunner) => {
      await Promise.all([a.tick(), b.tick()]);
      await Promise.all([a.whenIdle(), b.whenIdle()]);
    };

    test('a periodic job runs once per period across two processes starting at once', async () => {
      const clock = fixedClock(tr(21, 10));
      const { job, runs } = recordingJob('once-per-period', every(3600));
      const a = runnerOn(database.engine, clock, 'process-a');
      const b = runnerOn(open(), clock, 'process-b');
      a.addPeriodic(job);
      b.addPeriodic(job);
      await Promise.all([a.start(), b.start()]);
      await Promise.all([a.whenIdle(), b.whenIdle()]);
      assert.deepEqual(runs, [tr(21, 10)], 'one of the two did the work');
      await tickBoth(a, b);
      clock.advance(HOUR - 1);
      await tickBoth(a, b);
      assert.equal(runs.length, 1, 'not again within the period');
      clock.advance(1);
      await tickBoth(a, b);
      await tickBoth(a, b);
      assert.deepEqual(runs, [tr(21, 10), tr(21, 11)]);
      const counted = [...a.telemetry.counts(), ...b.telemetry.counts()].filter((c) => c.job === 'once-per-period');
      assert.equal(
        counted.reduce((sum, c) => sum + c.runs, 0),
        2,
      );
      await Promise.all([a.drain(), b.drain()]);
    });

    test('a missed day is caught up once, then the job keeps its hour', async () => {
      const clock = fixedClock(tr(21, 10));
      const { job, runs } = recordingJob('daily-catch-up', dailyAt(3));
      const a = runnerOn(database.engine, clock, 'process-a');
      a.addPeriodic(job);
      await a.start();
      await a.whenIdle();
      assert.deepEqual(runs, [tr(21, 3)], "a new installation runs today's at once");
      await a.drain();
      // Every process down from the 21st until the 24th at 09:00: three 03:00 runs missed.
      clock.set(tr(24, 9));
      const b = runnerOn(open(), clock, 'process-b');
      b.addPeriodic(job);
      await b.start();
      await b.whenIdle();
      assert.deepEqual(runs, [tr(21, 3), tr(22, 3)], 'caught up once, for the first day missed');
      clock.set(tr(25, 2, 59));
      await b.tick();
      await b.whenIdle();
      assert.equal(runs.length, 2);
      clock.set(tr(25, 3));
      await b.tick();
      await b.whenIdle();
      assert.deepEqual(runs.slice(2), [tr(25, 3)]);
      await b.drain();
    });

    test('a drained runner waits for the running job and starts nothing new', async () => {
      const clock = fixedClock(tr(21, 10));
      const held = gate();
      const started = gate();
      // This job does not stop early: the drain must wait for it.
      const { job, runs } = recordingJob('drain-waits', every(60), () => {
        started.open();
        return held.promise;
      });
      const queueClaims: number[] = [];
      const queue: QueueJob<number> = {
        name: 'drain-queue',
        concurrency: 2,
        claim: (limit) => {
          queueClaims.push(limit);
          return Promise.resolve([]);
        },
        run: () => Promise.resolve(),
        release: () => Promise.resolve(),
        backlog: () => Promise.resolve({ due: 0, oldestDueAt: null }),
      };
      const a = runnerOn(database.engine, clock, 'process-a');
      a.addPeriodic(job);
      a.addQueue(queue);
      await a.start();
      await started.promise;
      assert.equal(runs.length, 1);
      const claimsBefore = queueClaims.length;
      const drained = a.drain();
      assert.equal(await settledSoon(drained), false, 'the drain waits for the job in progress');
      held.open();
      await drained;
      const row = await database.engine.db.selectFrom('job_state').selectAll().where('name', '=', 'drain-waits').executeTakeFirstOrThrow();
      assert.equal(row.next_due_at, tr(21, 10) + 60_000, 'the finished run was recorded');
      assert.equal(row.holder, null);
      clock.advance(HOUR);
      await a.tick();
      await a.whenIdle();
      assert.equal(runs.length, 1, 'no new run after the drain');
      assert.equal(queueClaims.length, claimsBefore, 'no new claim after the drain');
    });

    test('a job that stops for a drain gives its run back, still owed, to the next process', async () => {
      const clock = fixedClock(tr(21, 10));
      const started = gate();
      const { job, runs } = recordingJob('drain-releases', every(3600), async ({ signal }) => {
        started.open();
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
      });
      const a = runnerOn(database.engine, clock, 'process-a');
      a.addPeriodic(job);
      await a.start();
      await started.promise;
      await a.drain();
      const row = await database.engine.db.selectFrom('job_state').selectAll().where('name', '=', 'drain-releases').executeTakeFirstOrThrow();
      assert.deepEqual([row.next_due_at, row.holder, row.lease_until], [tr(21, 10), null, null]);
      const b = runnerOn(open(), clock, 'process-b');
      const { job: same, runs: runsB } = recordingJob('drain-releases', every(3600));
      b.addPeriodic(same);
      await b.start();
      await b.whenIdle();
      assert.deepEqual([runs, runsB], [[tr(21, 10)], [tr(21, 10)]], 'the next process runs it at once, for the same due instant');
      await b.drain();
    });

    test("a crashed holder's claim is taken over once it has expired", async () => {
      const clock = fixedClock(tr(21, 10));
      const hung = gate();
      const started = gate();
      const crashing = open();
      const { job, runs } = recordingJob('crash-takeover', every(3600), () => {
        started.open();
        return hung.promise;
      });
      const a = runnerOn(crashing, clock, 'process-a');
      a.addPeriodic(job);
      await a.start();
      await started.promise;
      assert.equal(runs.length, 1, 'process a took the run');
      // Process a dies: its connections are gone and it renews nothing.
      await crashing.close();
      const b = runnerOn(database.engine, clock, 'process-b');
      const { job: same, runs: runsB } = recordingJob('crash-takeover', every(3600));
      b.addPeriodic(same);
      await b.start();
      await b.whenIdle();
      clock.advance(MANUAL.leaseMs - 1);
      await b.tick();
      await b.whenIdle();
      assert.deepEqual(runsB, [], 'not while the claim (and, on SQLite, the lease) may still be alive');
      clock.advance(1);
      await b.tick();
      await b.whenIdle();
      assert.deepEqual(runsB, [tr(21, 10)], 'taken over after expiry, for the same due instant');
      if (engine.name === 'sqlite') {
        const lease = await database.engine.db.selectFrom('job_state').select('holder').where('name', '=', SQLITE_LEASE).executeTakeFirstOrThrow();
        assert.equal(lease.holder, 'process-b');
      }
      hung.open();
      await a.whenIdle();
      await b.drain();
    });

    test('a failed run is owed: tried again after the pause, for the same due instant', async () => {
      const clock = fixedClock(tr(21, 10));
      let fail = true;
      const { job, runs } = recordingJob('fails-once', every(3600), () => (fail ? Promise.reject(new Error('database blip')) : Promise.resolve()));
      const log = captureLog();
      const a = createJobRunner({ db: database.engine.db, engineKind: engine.name, clock, log, holder: 'process-a', settings: MANUAL });
      a.addPeriodic(job);
      await a.start();
      await a.whenIdle();
      assert.ok(log.lines.some((l) => l.level === 'warn' && /job failed; will try again in 60 s/.test(l.message)));
      fail = false;
      clock.advance(MANUAL.failureRetryMs - 1);
      await a.tick();
      await a.whenIdle();
      assert.equal(runs.length, 1, 'no tight loop');
      clock.advance(1);
      await a.tick();
      await a.whenIdle();
      assert.deepEqual(runs, [tr(21, 10), tr(21, 10)]);
      assert.deepEqual(
        a.telemetry.counts().find((c) => c.job === 'fails-once'),
        { job: 'fails-once', kind: 'periodic', runs: 1, failures: 1 },
      );
      await a.drain();
    });

    test('a queue runs its items with bounded concurrency; backlog and counts for /metrics', async () => {
      const clock = fixedClock(tr(21, 10));
      const items = Array.from({ length: 10 }, (_, i) => i);
      let running = 0;
      let most = 0;
      const done: number[] = [];
      const queue: QueueJob<number> = {
        name: 'bounded',
        concurrency: 3,
        claim: (limit) => Promise.resolve(items.splice(0, limit)),
        async run(item) {
          running++;
          most = Math.max(most, running);
          await new Promise((r) => setTimeout(r, 5));
          running--;
          if (item === 7) throw new Error('item 7 broke');
          done.push(item);
        },
        release: () => Promise.resolve(),
        backlog: () => Promise.resolve({ due: items.length, oldestDueAt: items.length ? clock.now() - 90_000 : null }),
      };
      const a = runnerOn(database.engine, clock, 'process-a');
      a.addQueue(queue);
      assert.deepEqual(await a.telemetry.backlog(), [{ queue: 'bounded', due: 10, oldestAgeSeconds: 90 }]);
      await a.start();
      for (let i = 0; i < 100 && done.length < 9; i++) await new Promise((r) => setTimeout(r, 10));
      await a.whenIdle();
      assert.deepEqual(
        done.sort((x, y) => x - y),
        [0, 1, 2, 3, 4, 5, 6, 8, 9],
      );
      assert.equal(most, 3);
      assert.deepEqual(a.telemetry.counts(), [{ job: 'bounded', kind: 'queue', runs: 9, failures: 1 }]);
      assert.deepEqual(await a.telemetry.backlog(), [{ queue: 'bounded', due: 0, oldestAgeSeconds: 0 }]);
      await a.drain();
    });
  });
}
