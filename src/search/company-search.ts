/**
 * The company search of one server process: the search itself (search.service.ts) behind the
 * answer cache, with the name sample that plans SQLite's name searches. Built once per app.
 */
import type { Kysely } from 'kysely';
import type { DialectSeam } from '../db/dialect-seam.ts';
import type { Database } from '../db/schema.ts';
import { NameSample } from './name-sample.ts';
import { SearchCache } from './search-cache.ts';
import { runSearch, type SearchOutcome, type SearchPlan } from './search.service.ts';

export interface CompanySearch {
  /** The exact answer to a planned search, from the cache while the data is unchanged. */
  find(plan: SearchPlan): Promise<SearchOutcome>;
  /** Does before the first request what the first name search would otherwise do (65 ms at 10^7). */
  warmUp(): Promise<void>;
}

export interface CompanySearchOptions {
  db: Kysely<Database>;
  seam: DialectSeam;
  maxResults: number;
  /** Answers kept until the data changes; 0 = none. */
  cacheEntries: number;
}

export function createCompanySearch({ db, seam, maxResults, cacheEntries }: CompanySearchOptions): CompanySearch {
  const names = seam.plansNamesFromSample ? new NameSample() : null;
  const searchDeps = { db, seam, maxResults, names };
  const cache = new SearchCache<SearchOutcome>(cacheEntries);
  return {
    find: (plan) => cache.get(db, JSON.stringify(plan), () => runSearch(searchDeps, plan)),
    warmUp: async () => {
      await names?.refresh(db);
    },
  };
}
