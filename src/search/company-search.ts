/**
 * The company search of one server process: the search itself (search.service.ts) behind the
 * answer cache, with the name sample that plans name searches. Built once per app.
 */
import type { DialectSeam } from '../db/dialect-seam.ts';
import { NameSample } from './name-sample.ts';
import { NameVocabulary } from './name-vocabulary.ts';
import { SearchCache } from './search-cache.ts';
import { runSearch, type SearchOutcome, type SearchPlan } from './search.service.ts';
import { VisibleNamesKeeper, type VisibleNamesLog, type VisibleNamesStatus } from './visible-names-keeper.ts';
import type { Db } from '../db/types.ts';

export interface CompanySearch {
  /**
   * The exact answer to a planned search, from the cache while the data is unchanged.
   * @param dataVersion the data version, when read since the request arrived (search-cache.ts).
   */
  find(plan: SearchPlan, dataVersion?: number): Promise<SearchOutcome>;
  /**
   * Does before the first request what the first name search would otherwise do (65 ms at 10^7;
   * the vocabulary's first read), then starts loading the in-memory index of names (not awaited).
   */
  warmUp(): Promise<void>;
  /** The in-memory index of names (visible-names-keeper.ts); null when turned off. */
  nameIndex(): VisibleNamesStatus | null;
  /** Resolves once the index of names has loaded (or failed to): tests and the bench. */
  nameIndexLoaded(): Promise<void>;
  /** The server closes its database: background loading ends quietly (visible-names-keeper.ts). */
  stop(): void;
}

export interface CompanySearchOptions {
  db: Db;
  seam: DialectSeam;
  maxResults: number;
  /** Answers kept until the data changes; 0 = none. */
  cacheEntries: number;
  /** D25: near matches scoring below this are not shown (the search's default when absent). */
  nearMatchThreshold?: number;
  /** Issue 28: the searchable names in memory (visible-names.ts); false: the database only. Default on. */
  nameIndex?: boolean;
  /** Near matches from memory too (the keeper's `nameWords`); default: on PostgreSQL only. */
  nameWords?: boolean;
  log?: VisibleNamesLog;
}

export function createCompanySearch({
  db,
  seam,
  maxResults,
  cacheEntries,
  nearMatchThreshold,
  nameIndex = true,
  nameWords,
  log,
}: CompanySearchOptions): CompanySearch {
  // Both engines: its estimates send a common word straight to the rank walk and spare near
  // matches a look-up per word (a common word's costs most, on PostgreSQL 10+ ms at 10^6).
  const names = new NameSample();
  // The names' words, for near matches (name-vocabulary.ts): ~1 MB at 10^6 companies.
  const vocabulary = new NameVocabulary();
  // The companies with a visible report, in memory: a fresh name's candidates without a statement.
  // Near matches from memory too on PostgreSQL (the keeper's `nameWords`).
  const visibleNames = nameIndex ? new VisibleNamesKeeper(db, seam, { ...(log ? { log } : {}), ...(nameWords === undefined ? {} : { nameWords }) }) : null;
  const searchDeps = { db, seam, maxResults, names, vocabulary, visibleNames, ...(nearMatchThreshold === undefined ? {} : { nearMatchThreshold }) };
  const cache = new SearchCache<SearchOutcome>(cacheEntries);
  return {
    find: (plan, dataVersion) =>
      cache.get(
        db,
        JSON.stringify(plan),
        (version) => runSearch(version === undefined ? searchDeps : { ...searchDeps, dataVersion: version }, plan),
        dataVersion,
      ),
    warmUp: async () => {
      await names.refresh(db);
      await vocabulary.refresh(db, seam);
      // Started after the rest, not awaited: its load (~4 s of CPU at 10^6) must not hold up
      // the server's start (onReady awaits this warm-up, within Fastify's plugin timeout).
      visibleNames?.start();
    },
    nameIndex: () => visibleNames?.status() ?? null,
    nameIndexLoaded: async () => {
      await visibleNames?.loaded();
    },
    stop: () => visibleNames?.stop(),
  };
}
