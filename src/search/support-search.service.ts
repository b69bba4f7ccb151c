/**
 * Support staff's search (the CLI's `search`): the API's answer through the search use case
 * (answer-search.ts) for an uncharged operator, and audited as the operator (D21: channel `cli`,
 * actor = the shell's user), with the found companies counted as lookups (D34) in the same
 * transaction. A refused query is audited with its status and thrown on (AppError).
 */
import { performance } from 'node:perf_hooks';
import type { Actor } from '../actors/actor.ts';
import type { Db } from '../db/types.ts';
import { addLookups } from '../disclosure/lookup-counts.repository.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError } from '../lib/errors.ts';
import type { SearchAnswer, SearchService } from './answer-search.ts';
import type { SearchInput } from './search.service.ts';

export interface SupportSearchDeps {
  db: Db;
  clock: Clock;
  search: Pick<SearchService, 'answer'>;
}

export function createSupportSearch(deps: SupportSearchDeps) {
  return {
    /** @param startedAt `performance.now()` when the command began, for `meta.response_ms` and the record. */
    async answer(actor: Extract<Actor, { kind: 'cli' }>, input: SearchInput, startedAt = performance.now()): Promise<SearchAnswer> {
      const record = (db: Db, status: number, resultCount: number | null) =>
        db
          .insertInto('audit_log')
          .values({
            at: deps.clock.now(),
            key_id: null,
            member_id: null,
            q: input.q,
            type: input.type,
            country: input.country,
            status,
            result_count: resultCount,
            response_ms: Math.round(performance.now() - startedAt),
            client_address: 'cli',
            channel: 'cli',
            actor: actor.user,
          })
          .execute();
      let answer: SearchAnswer;
      try {
        answer = await deps.search.answer({ kind: 'operator' }, input, startedAt);
      } catch (error) {
        if (error instanceof AppError) await record(deps.db, error.statusCode, null);
        throw error;
      }
      await deps.db.transaction().execute(async (trx) => {
        await record(trx, 200, answer.response.result_count);
        await addLookups(trx, [{ at: deps.clock.now(), companyIds: answer.foundCompanyIds }]);
      });
      return answer;
    },
  };
}

export type SupportSearchService = ReturnType<typeof createSupportSearch>;
