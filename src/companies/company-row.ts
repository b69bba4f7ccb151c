/**
 * A company's row from the values someone typed (an import line, a filing, the first approval that
 * renames a company created by filing): the one place that derives the name columns (D8) and
 * lays out the row, so that every way in stores a company the search finds the same way.
 */
import type { Insertable, Updateable } from 'kysely';
import type { CompaniesTable } from '../db/schema.ts';
import { coreOfKey, toSearchKey } from './name-key.ts';

export interface NameColumns {
  /** The name as typed (trimmed by the caller's rules). */
  companyName: string;
  /** D8's search key of the name, and its core (legal-form and filler words dropped). */
  nameKey: string;
  nameCore: string;
}

/** A typed company, checked: tax ID already normalised for its country (D9). */
export interface TypedCompany extends NameColumns {
  taxId: string;
  taxIdNorm: string;
  country: string;
  city: string;
}

/** The name columns of a typed name. An empty `nameCore` means no letters or digits beyond legal forms: the callers refuse it. */
export function nameColumnsOf(companyName: string): NameColumns {
  const nameKey = toSearchKey(companyName);
  return { companyName, nameKey, nameCore: coreOfKey(nameKey) };
}

/** A new company's row. */
export function newCompanyRow(company: TypedCompany, now: number, visibleReportCount = 0): Insertable<CompaniesTable> {
  return {
    company_name: company.companyName,
    tax_id: company.taxId,
    tax_id_norm: company.taxIdNorm,
    country: company.country,
    city: company.city,
    name_key: company.nameKey,
    name_core: company.nameCore,
    visible_report_count: visibleReportCount,
    updated_at: now,
  };
}

/** The changes that give an existing company a newly typed name and city (and tax ID as written, when given). */
export function renamedCompany(names: NameColumns, city: string, now: number, taxId?: string): Updateable<CompaniesTable> {
  return {
    company_name: names.companyName,
    ...(taxId === undefined ? {} : { tax_id: taxId }),
    city,
    name_key: names.nameKey,
    name_core: names.nameCore,
    updated_at: now,
  };
}
