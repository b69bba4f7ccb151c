/**
 * Keeps one process's in-memory index of the searchable names (visible-names.ts) exactly
 * current, for every search (issue 28).
 *
 * - Loading: at start, in the background, in chunks by id (the event loop serves between
 *   them). Until it is done, `current()` answers null and searches take the database path.
 * - Catching up: every change to a company's searchable fields is logged with the data version
 *   its own bump produced (migration 0021), in commit order. Before each use, `current()` reads
 *   the data version (one indexed row); when it moved since the version applied, it reads the
 *   log above that version and the changed companies' rows as they are now, and applies them.
 *   Every change committed before the search began is then in the index: the log's rows at or
 *   below the version read are committed and visible to the statements that follow.
 * - Built again, in the background, when the log says everything changed (a bulk load, a
 *   TRUNCATE, a purge past the version applied) or holds more rows than a catch-up reads, and
 *   when the overlay of changes grows large; the old index is dropped first (one at a time in
 *   memory) and searches take the database path until the new one is built.
 * - The words of every company's name (all-name-words.ts, near matches) are built after the
 *   index is (it serves meanwhile: reading every company doubles the load), from their own read,
 *   brought to the index's version from the log, and then kept by the same catch-ups. Until
 *   then (and where they are not kept: SQLite's default) near matches take the database path,
 *   or on a large index its candidates from the index (search.service.ts); while the index is
 *   built again, the database path.
 */
import { readDataVersion } from '../db/data-version.repository.ts';
import type { DialectSeam } from '../db/dialect-seam.ts';
import type { Db } from '../db/types.ts';
import { countVisibleNames, ordersByCodePoint, readChangesSince, readNamesAfter, readNamesByIds, readVisibleNames } from './visible-names.repository.ts';
import { VisibleNamesBuilder, type VisibleNames } from './visible-names.ts';
import { AllNameWordsBuilder, type AllNameWords } from './all-name-words.ts';

export interface VisibleNamesLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface VisibleNamesKeeperOptions {
  /** Companies read per statement while loading (the event loop serves between chunks). */
  chunk?: number;
  /** Log rows a catch-up applies at most; more: the index is built again. */
  maxCatchUp?: number;
  /** Changed companies kept beside the packed ones before the index is built again. */
  maxChanged?: number;
  /**
   * The words of every company's name too, for near matches from memory (all-name-words.ts).
   * Default: on PostgreSQL only (its statements' CPU per misspelt name at 10^6: 25 ms, 1.2 from
   * memory); on SQLite, in-process, they cost no less CPU from memory and more in the tail
   * (docs/benchmarks.md, "Near matches from memory"), so the words (21 MB) are not built.
   */
  nameWords?: boolean;
  log?: VisibleNamesLog;
}

export interface VisibleNamesStatus {
  state: 'loading' | 'ready' | 'rebuilding' | 'unusable';
  companies: number;
  bytes: number;
  /** Bytes of the words of every company's name (all-name-words.ts). */
  wordBytes: number;
  /** The data version the index is current at (-1 before the first load). */
  version: number;
  /** Milliseconds the last load of the words took (after the index's). */
  wordsLoadMs: number | null;
  /** Milliseconds the last load took. */
  loadMs: number | null;
}

/** After a failed build (the database unreachable), the next try. */
const RETRY_MS = 30_000;
/** Checks of words under 3 letters on names, at most, on PostgreSQL (~1 µs each: at most ~60 ms of the serving thread for a query). */
const SHORT_WORDS_CHECKED_POSTGRES = 60_000;

export class VisibleNamesKeeper {
  private index: VisibleNames | null = null;
  private words: AllNameWords | null = null;
  private version = -1;
  private unusable = false;
  private building: Promise<void> | null = null;
  /** Set by stop(): the server is closing its database, so background work ends quietly. */
  private stopped = false;
  private buildingWords: Promise<void> | null = null;
  private wordsLoadMs: number | null = null;
  private catchingUp: Promise<void> | null = null;
  private loadMs: number | null = null;
  private readonly chunk: number;
  private readonly maxCatchUp: number;
  private readonly maxChanged: number;

  constructor(
    private readonly db: Db,
    private readonly seam: DialectSeam,
    private readonly options: VisibleNamesKeeperOptions = {},
  ) {
    this.chunk = options.chunk ?? 5_000;
    this.maxCatchUp = options.maxCatchUp ?? 5_000;
    this.maxChanged = options.maxChanged ?? 20_000;
  }

  /** Starts loading in the background (once; a one-off command never does); `loaded()` resolves when the first build ends. */
  start(): void {
    if (!this.index && !this.building && !this.unusable) this.rebuild();
  }

  /** Resolves once a build in progress has ended (tests, the bench). */
  async loaded(): Promise<void> {
    while (this.building || this.buildingWords) await (this.building ?? this.buildingWords);
  }

  /**
   * The index, current with every change committed before this call (or before `knownVersion`
   * was read, when given: a data version read since the request arrived); null: use the database.
   */
  async current(knownVersion?: number): Promise<VisibleNames | null> {
    if (this.unusable) return null;
    // Not loaded (or not started: only a serving process starts it, company-search.ts warmUp).
    if (!this.index) return null;
    while (this.catchingUp) await this.catchingUp;
    this.catchingUp = this.catchUp(knownVersion).finally(() => {
      this.catchingUp = null;
    });
    await this.catchingUp;
    return this.index;
  }

  /**
   * The index and the words of every company's name (near matches), both current as `current()`
   * makes them; null: use the database.
   */
  async currentWithWords(knownVersion?: number): Promise<{ index: VisibleNames; words: AllNameWords } | null> {
    const found = await this.currentForNearMatches(knownVersion);
    return found?.words ? { index: found.index, words: found.words } : null;
  }

  /** The index, current as `current()` makes it, and the names' words when they are kept and built (one catch-up); null: use the database. */
  async currentForNearMatches(knownVersion?: number): Promise<{ index: VisibleNames; words: AllNameWords | null } | null> {
    const index = await this.current(knownVersion);
    return index ? { index, words: this.words } : null;
  }

  status(): VisibleNamesStatus {
    const state = this.unusable ? 'unusable' : !this.index ? 'loading' : this.building ? 'rebuilding' : 'ready';
    return {
      state,
      companies: this.index?.size ?? 0,
      bytes: this.index?.bytes() ?? 0,
      wordBytes: this.words?.size().bytes ?? 0,
      version: this.version,
      loadMs: this.loadMs,
      wordsLoadMs: this.wordsLoadMs,
    };
  }

  private async catchUp(knownVersion?: number): Promise<void> {
    const index = this.index;
    const words = this.words;
    if (!index) return;
    const version = knownVersion ?? (await readDataVersion(this.db));
    // Equal, or older than the version applied (read before a concurrent catch-up): nothing to read.
    if (version <= this.version) return;
    const changes = await readChangesSince(this.db, this.version, this.maxCatchUp + 1);
    if (changes.length > this.maxCatchUp || changes.some((c) => c.companyId === null)) {
      this.rebuild();
      return;
    }
    const ids = [...new Set(changes.map((c) => c.companyId!))];
    const current = await readNamesByIds(this.db, this.seam, ids);
    // Replaced meanwhile (a build ended): the new one catches up by itself.
    if (this.index !== index) return;
    index.apply(ids, current);
    // Loaded since these were read (it caught up by itself then): applying them again is harmless.
    words?.apply(ids, current);
    this.version = version;
    if (index.changedCount > this.maxChanged || (words && words.changedCount > this.maxChanged)) this.rebuild();
  }

  private rebuild(): void {
    if (this.building || this.stopped) return;
    // The old index goes first (searches take the database path until the new one is built):
    // two at once would add its ~35 MB at 10^6 to the process's peak.
    this.index = null;
    this.words = null;
    this.version = -1;
    this.building = this.build()
      .catch((error: unknown) => {
        if (this.stopped) return;
        this.options.log?.warn({ err: error }, 'could not build the in-memory index of names; searches use the database, another try in 30 s');
        setTimeout(() => this.rebuild(), RETRY_MS).unref();
      })
      .finally(() => {
        this.building = null;
      });
  }

  /**
   * Before the database closes (the server stops): a build in progress ends at its next chunk
   * with no warning and no retry (its statements would fail on the closed pool).
   */
  stop(): void {
    this.stopped = true;
  }

  private async build(): Promise<void> {
    const started = performance.now();
    if (!(await ordersByCodePoint(this.db, this.seam))) {
      this.unusable = true;
      this.options.log?.warn({}, "the database's collation does not order names by code point: the in-memory index of names is off");
      return;
    }
    // The version first: a change committed while the companies are read is in the log above it.
    const version = await readDataVersion(this.db);
    const builder = new VisibleNamesBuilder(await countVisibleNames(this.db));
    let afterId = 0;
    for (;;) {
      const rows = await readVisibleNames(this.db, afterId, this.chunk);
      for (const row of rows) builder.add(row);
      if (rows.length < this.chunk) break;
      afterId = rows[rows.length - 1]!.id;
      // Let requests in between chunks.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.stopped) return;
    }
    // PostgreSQL has no word index (dialect-seam.ts): a word under 3 letters is found only by a
    // pattern on the other words' candidates there, so memory checks it on more names first.
    const index = builder.build(this.seam.kind === 'postgres' ? { shortWordsChecked: SHORT_WORDS_CHECKED_POSTGRES } : {});
    this.index = index;
    this.version = version;
    this.loadMs = performance.now() - started;
    if (!(this.options.nameWords ?? this.seam.kind === 'postgres')) return this.logLoaded(index);
    this.buildingWords = this.buildWords(index)
      .catch((error: unknown) => {
        if (this.stopped) return;
        this.options.log?.warn({ err: error }, "could not build the names' words: near matches use the database until the index is built again");
      })
      .finally(() => {
        this.buildingWords = null;
      });
    this.logLoaded(index);
  }

  private logLoaded(index: VisibleNames): void {
    this.options.log?.info(
      { companies: index.size, bytes: index.bytes(), loadMs: Math.round(this.loadMs ?? 0) },
      'in-memory index of names loaded: fresh name searches read only the rows they show',
    );
  }

  /** The words of every company's name, for `index`, brought to its version (the class comment). */
  private async buildWords(index: VisibleNames): Promise<void> {
    const started = performance.now();
    // The version first: a change committed while the words are read is in the log above it.
    const version = await readDataVersion(this.db);
    const builder = new AllNameWordsBuilder();
    const chunk = this.chunk * 10;
    for (let afterWord = 0; ;) {
      const { rows } = await this.seam.vocabularySince(this.db, afterWord, chunk);
      for (const row of rows) builder.addKnownWord(row.word);
      if (rows.length < chunk) break;
      afterWord = rows[rows.length - 1]!.id;
      await new Promise((resolve) => setImmediate(resolve));
      if (this.stopped) return;
    }
    for (let afterId = 0; ;) {
      const rows = await readNamesAfter(this.db, afterId, this.chunk);
      for (const row of rows) builder.addName(row.nameKey);
      if (rows.length < this.chunk) break;
      afterId = rows[rows.length - 1]!.id;
      await new Promise((resolve) => setImmediate(resolve));
      if (this.stopped) return;
    }
    const words = builder.build();
    // As a catch-up (none runs meanwhile): every change above the words' version, the index's
    // own included (applied again: harmless), then both are at the index's version or later.
    while (this.catchingUp) await this.catchingUp;
    this.catchingUp = (async () => {
      if (this.index !== index) return;
      const changes = await readChangesSince(this.db, version, this.maxCatchUp + 1);
      if (changes.length > this.maxCatchUp || changes.some((c) => c.companyId === null)) {
        this.rebuild();
        return;
      }
      const ids = [...new Set(changes.map((c) => c.companyId!))];
      const current = await readNamesByIds(this.db, this.seam, ids);
      if (this.index !== index) return;
      words.apply(ids, current);
      this.words = words;
      this.wordsLoadMs = performance.now() - started;
      this.options.log?.info(
        { words: words.size().words, bytes: words.size().bytes, loadMs: Math.round(this.wordsLoadMs) },
        "names' words loaded: near matches from memory",
      );
    })().finally(() => {
      this.catchingUp = null;
    });
    await this.catchingUp;
  }
}
