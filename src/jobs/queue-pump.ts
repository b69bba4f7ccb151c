/**
 * Keeps one queue's items running, at most `concurrency` at once in this process: claims as many
 * as there is room for, starts each, and claims again as they finish, or as they free their slot
 * (`freeSlot`, job-types.ts): at most `concurrency` hold a slot, and at most twice that many runs
 * have not ended.
 * Once stopped it claims nothing more and gives back whatever a claim in flight brings.
 */
import type { JobLog, QueueJob } from './job-types.ts';

export interface QueuePumpDeps {
  readonly log: JobLog;
  /** False while this process may not work (SQLite: another process holds the lease). */
  readonly mayWork: () => boolean;
  readonly stopping: AbortSignal;
  readonly counted: (outcome: 'run' | 'failure') => void;
}

export interface QueuePump {
  /** Claims and starts items if there is room; returns at once. */
  pump(): void;
  /** Resolves when no claim and no item of this queue is in progress. */
  whenIdle(): Promise<void>;
}

export function createQueuePump<Item>(job: QueueJob<Item>, deps: QueuePumpDeps): QueuePump {
  /** Every run not ended yet (drain waits for them). */
  const running = new Set<Promise<void>>();
  /** Of those, the runs that hold a slot (have not freed it). */
  const holding = new Set<object>();
  let claiming: Promise<void> | null = null;
  let pumpAgain = false;
  /** Set while the job's pace lets nothing start: the pump tries again when it fires. */
  let paced: NodeJS.Timeout | null = null;
  deps.stopping.addEventListener('abort', () => {
    if (paced) clearTimeout(paced);
  });

  const start = (item: Item) => {
    const slot = {};
    holding.add(slot);
    const freeSlot = () => {
      if (holding.delete(slot)) setImmediate(pump);
    };
    const run: Promise<void> = job
      .run(item, deps.stopping, freeSlot)
      .then(
        () => deps.counted('run'),
        (error: unknown) => {
          deps.counted('failure');
          deps.log.warn({ err: error, queue: job.name }, 'a queued item failed; it is retried when its claim expires');
        },
      )
      .finally(() => {
        running.delete(run);
        holding.delete(slot);
        setImmediate(pump);
      });
    running.add(run);
  };

  const claimSome = async (room: number): Promise<number> => {
    let items: Item[];
    try {
      items = await job.claim(room);
    } catch (error) {
      deps.log.warn({ err: error, queue: job.name }, 'could not claim queued items; will try again');
      return 0;
    }
    if (deps.stopping.aborted) {
      await job
        .release(items)
        .catch((error: unknown) => deps.log.warn({ err: error, queue: job.name }, 'could not give back claimed items; their claims expire'));
      return 0;
    }
    for (const item of items) start(item);
    return items.length;
  };

  function pump(): void {
    if (deps.stopping.aborted || !deps.mayWork()) return;
    if (claiming) {
      pumpAgain = true;
      return;
    }
    // Runs that freed their slot and have not ended yet are bounded too: never more runs in all
    // than twice the slots (a database slower than the receivers does not pile outcomes up).
    let room = Math.min(job.concurrency - holding.size, 2 * job.concurrency - running.size);
    if (room <= 0 || (holding.size > 0 && room < Math.min(job.claimBatch ?? 1, job.concurrency))) return;
    if (job.pace) {
      if (paced) return;
      const { limit, retryInMs } = job.pace(room);
      if (limit <= 0) {
        paced = setTimeout(() => {
          paced = null;
          pump();
        }, retryInMs);
        return;
      }
      room = Math.min(room, limit);
    }
    pumpAgain = false;
    claiming = claimSome(room).then((claimed) => {
      claiming = null;
      // A full claim may leave more due items; room freed while claiming is used at once, also
      // after a claim that found nothing it could take (an endpoint's next delivery waits for the
      // one in flight, which may have finished meanwhile).
      if (claimed === room || pumpAgain) setImmediate(pump);
    });
  }

  return {
    pump,
    async whenIdle() {
      while (claiming || running.size > 0) await Promise.allSettled([claiming, ...running]);
    },
  };
}
