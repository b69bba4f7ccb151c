/**
 * The disclosure (D34; KVKK art. 11): for a company by country and tax ID, what is held on it,
 * printed by an operator as a console page or a PDF. Every print is in the operator log (who, when,
 * which company, which form, how many records), written before the document is handed out.
 */
import type { CountryCatalogue } from '../countries/catalogue.ts';
import type { Actor } from '../actors/actor.ts';
import type { Clock } from '../lib/clock.ts';
import { appendOperatorLog, operatorIdentity } from '../operator/operator-log.ts';
import { findCompanyById } from '../reports/report-queries.repository.ts';
import { findCompanyIdByTaxId } from '../reports/report-queries.service.ts';
import type { RetentionSettings } from '../retention/retention-settings.ts';
import { listHeldHistory, listHeldReports, NO_DISPUTES, type DisclosureDisputeSource } from './disclosure.repository.ts';
import { buildDisclosure, disclosureMonths, type DisclosureView } from './disclosure-view.ts';
import { listLookups } from './lookup-counts.repository.ts';
import type { Db } from '../db/types.ts';

export interface DisclosureDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly countries: Pick<CountryCatalogue, 'get'>;
  readonly retention: RetentionSettings;
  /** The disputes (D33) over the reports; none until the disputes feature passes its own. */
  readonly disputes?: DisclosureDisputeSource;
}

export type DisclosureForm = 'page' | 'pdf';

/**
 * The view of what is held on the company (D9-checked tax ID; not_found when none is held), and
 * the operator log entry for printing it, in one transaction: no print goes unlogged.
 */
async function printDisclosure(
  deps: DisclosureDeps,
  operator: Actor,
  company: { country: string; taxId: string },
  form: DisclosureForm,
): Promise<DisclosureView> {
  return deps.db.transaction().execute(async (trx) => {
    const who = await operatorIdentity(trx, operator);
    const companyId = await findCompanyIdByTaxId(trx, deps.countries, company.country, company.taxId);
    const row = (await findCompanyById(trx, companyId))!;
    const now = deps.clock.now();
    const reports = await listHeldReports(trx, companyId);
    const ids = reports.map((r) => r.id);
    const view = buildDisclosure({
      company: { name: row.company_name, taxId: row.tax_id, country: row.country, city: row.city },
      reports,
      history: await listHeldHistory(trx, ids),
      disputes: await (deps.disputes ?? NO_DISPUTES)(trx, ids),
      lookups: await listLookups(trx, companyId, disclosureMonths(now)[0]!.month),
      now,
      retention: deps.retention,
    });
    await appendOperatorLog(trx, {
      at: now,
      userId: who.userId,
      actor: who.label,
      action: 'disclosure.print',
      target: `company:${row.country}/${row.tax_id_norm}`,
      before: null,
      after: { form, records: view.reports.length, shown: view.shownCount, lookups_12_months: view.lookupsTotal },
    });
    return view;
  });
}

/**
 * The disclosure use case (D34), built by the composition root (src/services.ts) with the
 * server's retention settings (what the document says of each record's keeping) and the
 * disputes' source. An active operator prints it (the console); the CLI's actor may too.
 */
export function createDisclosure(deps: DisclosureDeps) {
  return {
    print: async (actor: Actor, input: { country: string; taxId: string; form: DisclosureForm }) =>
      printDisclosure(deps, actor, { country: input.country, taxId: input.taxId }, input.form),
  };
}

export type Disclosure = ReturnType<typeof createDisclosure>;
