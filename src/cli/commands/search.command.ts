/**
 * `risklookup search Q [--type name|tax_id] [--country CC]`: the API's answer for support staff,
 * through the same use case (search/answer-search.ts), charged to no quota and audited as the
 * operator (D21: channel `cli`, actor = the operating-system user).
 */
import { userInfo } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Command } from 'commander';
import { parseConfig } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';
import { UsageError } from '../command-errors.ts';
import type { SearchResponse } from '../../search/answer-search.ts';
import { checkSearchInput, normaliseSearchQuery } from '../../search/search-params.ts';
import type { SearchInput } from '../../search/search.service.ts';
import { withContext } from '../context.ts';

interface SearchFlags {
  type: string;
  country?: string;
}

/** D7's parameter rules (search-params.ts, as the API and the portal apply them), as usage errors. */
function searchInputOf(q: string, flags: SearchFlags, supported: (code: string) => boolean): SearchInput {
  try {
    return checkSearchInput(normaliseSearchQuery({ q, type: flags.type, country: flags.country ?? '' }), supported);
  } catch (error) {
    throw error instanceof AppError ? new UsageError(error.message) : error;
  }
}

function describeAnswer(response: SearchResponse): string[] {
  const lines = [`${response.result_count} ${response.result_count === 1 ? 'company' : 'companies'}${response.meta.truncated ? ' (more matched)' : ''}`];
  for (const c of response.results) {
    lines.push(
      '',
      `${c.company_name}  ${c.country} ${c.tax_id}  ${c.city}`,
      `  threat level ${c.threat_level}, ${c.report_count} visible report(s), last updated ${c.last_updated}`,
    );
    for (const r of c.reports) {
      const amount = r.amount === undefined ? '' : `  ${r.amount.toFixed(2)} ${r.currency}`;
      lines.push(`  #${r.report_id} ${r.type}${r.official ? '' : ' (claim)'}  filed ${r.filed_at}${amount}`);
    }
  }
  for (const n of response.near_matches ?? []) lines.push(`  near match: ${n.company_name}  ${n.country} ${n.tax_id}  similarity ${n.similarity.toFixed(2)}`);
  return lines;
}

export function searchCommand(): Command {
  return new Command('search')
    .description('look a company up as the API answers it, for support staff: no quota; audited as the operator (D21)')
    .argument('<q>', 'company name or tax ID')
    .option('--type <type>', "'name' or 'tax_id'", 'name')
    .option('--country <code>', 'two-letter country code (D9: required for a checked tax ID)')
    .action(async (q: string, flags: SearchFlags, cmd: Command) =>
      withContext(cmd, async ({ engine, clock, out }) => {
        // The validators (stdnum) and the search load only now: a usage error answers without them.
        const [{ buildCountryCatalogue }, { quotaOn }, { answerSearch }, { createCompanySearch }] = await Promise.all([
          import('../../countries/catalogue.ts'),
          import('../../quota/allowance.ts'),
          import('../../search/answer-search.ts'),
          import('../../search/company-search.ts'),
        ]);
        // The served countries and the result limit are the server's settings (D10, D22).
        const config = parseConfig({}, process.env);
        const countries = buildCountryCatalogue(config.countries);
        const input = searchInputOf(q, flags, (code) => countries.get(code) !== undefined);
        const search = createCompanySearch({
          db: engine.db,
          seam: engine.seam,
          maxResults: config.maxResults,
          cacheEntries: 0,
          nearMatchThreshold: config.nearMatchThreshold,
        });
        const startedAt = performance.now();
        const record = (status: number, resultCount: number | null) =>
          engine.db
            .insertInto('audit_log')
            .values({
              at: clock.now(),
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
              actor: userInfo().username,
            })
            .execute();
        let answer;
        try {
          answer = await answerSearch({ countries, search, quota: quotaOn(engine.db), clock }, input, { kind: 'operator' }, startedAt);
        } catch (error) {
          if (error instanceof AppError) {
            await record(error.statusCode, null);
            throw new UsageError(error.message);
          }
          throw error;
        }
        await record(200, answer.response.result_count);
        const { addLookups } = await import('../../disclosure/lookup-counts.repository.ts');
        await addLookups(engine.db, [{ at: clock.now(), companyIds: answer.foundCompanyIds }]);
        out.result(answer.response, describeAnswer(answer.response));
      }),
    );
}
