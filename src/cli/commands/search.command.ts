/**
 * `risklookup search Q [--type name|tax_id] [--country CC]`: the API's answer for support staff,
 * through the services' `supportSearch` (search/support-search.service.ts): the API's use case,
 * charged to no quota and audited as the operator (D21: channel `cli`, actor = the
 * operating-system user).
 */
import { userInfo } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Command } from 'commander';
import { AppError } from '../../lib/errors.ts';
import { UsageError } from '../command-errors.ts';
import type { SearchResponse } from '../../search/answer-search.ts';
import { checkSearchInput, normaliseSearchQuery } from '../../search/search-params.ts';
import type { SearchInput } from '../../search/search.service.ts';
import { commandServices, withContext } from '../context.ts';

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
        // The validators (stdnum) load only now: help and usage errors of the flags answer without them.
        const { buildCountryCatalogue } = await import('../../countries/catalogue.ts');
        // The served countries and the result limit are the server's settings (D10, D22).
        const { countries, supportSearch } = commandServices({ engine, clock }, { countries: buildCountryCatalogue });
        const input = searchInputOf(q, flags, (code) => countries.get(code) !== undefined);
        const startedAt = performance.now();
        let answer;
        try {
          answer = await supportSearch.answer({ kind: 'cli', user: userInfo().username }, input, startedAt);
        } catch (error) {
          throw error instanceof AppError ? new UsageError(error.message) : error;
        }
        out.result(answer.response, describeAnswer(answer.response));
      }),
    );
}
