/**
 * `risklookup import FILE` (D24): streams JSON Lines, checks each line, writes the good ones in
 * batches inside one transaction, and commits only when every line is good; otherwise it rolls
 * back and lists every bad line.
 */
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { CountryCatalogue } from '../countries/catalogue.ts';
import type { Clock } from '../lib/clock.ts';
import { companyKey, TURN_EVERY_LINES, writeBatch, type BatchContext, type BatchLine, type ImportSummary } from './import-batch.ts';
import { runWriteSession, type WriteEngine } from '../db/write-session.ts';
import { checkFileInWorker, checkLinesInline, checkLinesInWorker } from './line-checker.ts';
import type { CheckedLine } from './import-line.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { recordCompanyChanges, type CompanyChange } from '../events/company-changes.ts';
import { companyOfWatchKey, lockFeedHead, watchedKeys, watchKey } from '../events/events.repository.ts';
import { WrittenFilter } from './written-filter.ts';
import { nextTurn } from '../lib/next-turn.ts';
import { DEFAULT_RETENTION, type RetentionSettings } from '../retention/retention-settings.ts';

export type { ImportSummary } from './import-batch.ts';

/** What the import needs of an engine: it writes through a write session (db/write-session.ts). */
export type ImportEngine = WriteEngine;

/** From this file size on, lines are checked on a second thread (~1 100 companies). */
const WORKER_MIN_BYTES = 1 << 20;

/**
 * Lines per batch: large enough to amortise a batch's statements (its look-ups, ids, COPYs and
 * watchers' read), small enough to keep memory flat (a few MB). 2,000 against 500: PostgreSQL's
 * backend CPU −11 % at 10^5 companies, the process's −5 % (docs/benchmarks.md).
 */
export const IMPORT_BATCH_LINES = 2_000;

export class ImportFailed extends Error {
  constructor(
    readonly problems: string[],
    readonly lines: number,
  ) {
    super(`import failed: ${problems.length} bad line(s); nothing was written`);
    this.name = 'ImportFailed';
  }
}

export interface ImportOptions {
  countries: CountryCatalogue;
  /**
   * Check lines on a worker thread while this one writes (line-checker.ts). Default for a file:
   * when it is large enough to pay for the thread's start.
   */
  checkInWorker?: boolean;
  clock: Clock;
  /**
   * D34's settings, the server's (config `retention`): a report already past its retention end
   * is written `expired` (import-batch.ts). Default: D34's own periods.
   */
  retention?: RetentionSettings;
  /** Called now and then with the lines and bytes read so far (bytes: 0 when not from a file). */
  onProgress?: (lines: number, bytes: number) => void;
  /** Told, before the first line is written, what the operator should know about how the import writes (db/write-session.ts). */
  onNotice?: (message: string) => void;
}

/** Imports the file whole or not at all. Throws ImportFailed with every `line N: reason`. */
export async function importFile(engine: ImportEngine, path: string, options: ImportOptions): Promise<ImportSummary> {
  const onProgress = options.onProgress;
  if (options.checkInWorker ?? statSync(path).size >= WORKER_MIN_BYTES) {
    // The worker reads the file too: this thread only writes (docs/benchmarks.md).
    let bytes = 0;
    const checked = checkFileInWorker(path, options.countries, (b) => (bytes = b));
    return importChecked(engine, checked, `import ${path}`, { ...options, onProgress: onProgress && ((n) => onProgress(n, bytes)) });
  }
  const input = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  // Take the iterator now: readline emits lines as soon as the file opens, and lines emitted
  // before anyone iterates (while the transaction is still starting) would be lost.
  const lines = input[Symbol.asyncIterator]();
  let bytes = 0;
  const counted: AsyncIterator<string> = {
    next: async () => {
      const item = await lines.next();
      if (!item.done) bytes += Buffer.byteLength(item.value) + 1;
      return item;
    },
  };
  try {
    return await importLines(engine, { [Symbol.asyncIterator]: () => counted }, `import ${path}`, {
      ...options,
      checkInWorker: false,
      onProgress: onProgress && ((n) => onProgress(n, bytes)),
    });
  } finally {
    input.close();
  }
}

class Rollback extends Error {}

/**
 * The watchers of an import (D31), set-based: the companies someone watches are read once, as the
 * import begins (their keys only: a few MB at 100,000 watched companies); each batch notes which
 * of its companies are among them, without a statement; at the end, in the import's transaction,
 * the seam is called once with those and with every company whose watch was added while the
 * import ran (its baseline was computed without the import's uncommitted rows). Those are found
 * under the feed's head, which a new watch takes too (watchlist.service.ts): the watched keys are
 * read again and compared with the ones at the start, so no watch committed in between is missed,
 * whatever its time stamp or the clocks of its process. The import takes the feed's head only
 * then, so a long import does not hold up moderation or new watches until its very end. (A read
 * per batch, as before, ran behind the batch's COPYs on PostgreSQL and held the next batch until
 * they were done: docs/benchmarks.md "Batches overlapped".)
 */
class ImportWatchers {
  private readonly watched = new Map<string, CompanyChange>();

  private constructor(
    private readonly trx: Transaction<Database>,
    private readonly clock: Clock,
    private readonly watchedAtStart: ReadonlySet<string>,
  ) {}

  static async start(trx: Transaction<Database>, clock: Clock): Promise<ImportWatchers> {
    return new ImportWatchers(trx, clock, await watchedKeys(trx));
  }

  /** Notes which of a batch's companies are watched. */
  note(keys: ReadonlyArray<{ country: string; taxIdNorm: string }>): void {
    if (this.watchedAtStart.size === 0) return;
    for (const k of keys) {
      const key = watchKey(k.country, k.taxIdNorm);
      if (this.watchedAtStart.has(key)) this.watched.set(key, { country: k.country, taxIdNorm: k.taxIdNorm });
    }
  }

  async tell(): Promise<number> {
    const now = this.clock.now();
    await lockFeedHead(this.trx, now);
    for (const key of await watchedKeys(this.trx)) {
      if (!this.watchedAtStart.has(key)) this.watched.set(key, companyOfWatchKey(key));
    }
    return recordCompanyChanges(this.trx, now, [...this.watched.values()]);
  }
}

/**
 * Collects lines into batches; a line that repeats a company or report ref of the batch starts a new one, so lines apply in order.
 * One batch is written while the next is collected: on PostgreSQL the server works through a
 * batch's statements while this thread takes in, checks and makes the next one, instead of each
 * waiting for the other. A batch starts once the one before it has sent its statements (its
 * COPYs are queued on the connection, db/bulk-writer.ts: the next batch's reads run after them
 * and see their rows), and a failed write fails the next flush or `finish`.
 */
class Batcher {
  private lines: BatchLine[] = [];
  private keys = new Set<string>();
  private refs = new Set<string>();
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: BatchContext,
    private readonly watchers: ImportWatchers,
  ) {}

  async add(line: BatchLine): Promise<void> {
    const key = companyKey(line.company.country, line.company.taxIdNorm);
    const refs = line.company.reports.map((r) => r.ref).filter((r): r is string => r !== null);
    if (this.lines.length >= IMPORT_BATCH_LINES || this.keys.has(key) || refs.some((r) => this.refs.has(r))) await this.flush();
    this.lines.push(line);
    this.keys.add(key);
    refs.forEach((r) => this.refs.add(r));
  }

  async flush(): Promise<void> {
    const lines = this.lines;
    this.lines = [];
    this.keys.clear();
    this.refs.clear();
    await this.writing;
    this.writing = this.write(lines);
    // Awaited by the next flush or by finish; until then a failure must not count as unhandled.
    this.writing.catch(() => {});
  }

  /** Writes what is left and waits for every write. */
  async finish(): Promise<void> {
    await this.flush();
    await this.writing;
  }

  /** Waits until no write is under way, whatever its outcome (before the transaction ends). */
  async idle(): Promise<void> {
    await this.writing.catch(() => {});
  }

  private async write(lines: readonly BatchLine[]): Promise<void> {
    await writeBatch(this.ctx, lines);
    // The batch's companies that someone watches (D31): told once, at the end (watchers.tell).
    this.watchers.note(lines.map((l) => ({ country: l.company.country, taxIdNorm: l.company.taxIdNorm })));
  }
}

/** The import of any sequence of lines (a file, or the demo data), in one transaction. */
export async function importLines(
  engine: ImportEngine,
  lines: AsyncIterable<string> | Iterable<string>,
  changedBy: string,
  options: ImportOptions,
): Promise<ImportSummary> {
  return importChecked(
    engine,
    options.checkInWorker ? checkLinesInWorker(lines, options.countries) : checkLinesInline(lines, options.countries),
    changedBy,
    options,
  );
}

/**
 * The import of checked lines, in one transaction. The generator of `checked` is started only
 * inside the transaction, and ended (its worker thread stopped) whatever the outcome.
 */
async function importChecked(engine: ImportEngine, checked: AsyncGenerator<CheckedLine>, changedBy: string, options: ImportOptions): Promise<ImportSummary> {
  const summary: ImportSummary = { lines: 0, companiesAdded: 0, companiesUpdated: 0, reportsAdded: 0, reportsUpdated: 0, reportsExpired: 0 };
  const problems: string[] = [];
  try {
    // One session: into an empty database it builds the indexes once at the end, and its close
    // bumps the data version, so cached search answers see the import.
    await runWriteSession(
      engine,
      async (session) => {
        const watchers = await ImportWatchers.start(session.trx, options.clock);
        const written = session.freshLoad ? { taxIds: new WrittenFilter(), refs: new WrittenFilter() } : null;
        const batcher = new Batcher(
          { session, clock: options.clock, changedBy, retention: options.retention ?? DEFAULT_RETENTION, memberIds: new Map(), summary, problems, written },
          watchers,
        );
        let lineNo = 0;
        try {
          for await (const line of checked) {
            lineNo = line.lineNo;
            if (lineNo % 1000 === 0) options.onProgress?.(lineNo, 0);
            // Lines arrive as microtasks: without a turn of the event loop now and then, the
            // connection's replies and the next piece of a COPY wait for the whole chunk, and so
            // does PostgreSQL (docs/benchmarks.md "Batches overlapped").
            if (lineNo % TURN_EVERY_LINES === 0) await nextTurn();
            if (line.blank) continue;
            summary.lines++;
            if (line.company) await batcher.add({ lineNo, company: line.company });
            for (const p of line.problems) problems.push(`line ${lineNo}: ${p}`);
          }
          await batcher.finish();
        } finally {
          // No statement of a batch may run after the transaction has ended (the session waits for its COPYs).
          await batcher.idle();
        }
        options.onProgress?.(lineNo, 0);
        if (problems.length > 0) throw new Rollback();
        await watchers.tell();
      },
      { onNotice: options.onNotice },
    );
  } catch (error) {
    if (error instanceof Rollback) throw new ImportFailed(sortByLine(problems), summary.lines);
    throw error;
  }
  if (summary.companiesAdded + summary.reportsAdded >= STATISTICS_AFTER_ROWS) await engine.seam.refreshStatistics(engine.db, ['companies', 'reports']);
  return summary;
}

/** Rows added by one import from which the planner's statistics are refreshed (dialect-seam.ts). */
const STATISTICS_AFTER_ROWS = 10_000;

/** Problems found when a batch is written come after later lines' own; report in line order. */
function sortByLine(problems: string[]): string[] {
  const lineOf = (p: string) => Number(/^line (\d+):/.exec(p)?.[1] ?? 0);
  return problems
    .map((p, i) => [p, i] as const)
    .sort((a, b) => lineOf(a[0]) - lineOf(b[0]) || a[1] - b[1])
    .map(([p]) => p);
}
