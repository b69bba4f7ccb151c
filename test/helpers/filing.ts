/** Filing inputs and refusal checks shared by the report workflow tests (D29, D30). */
import assert from 'node:assert/strict';
import { DomainError } from '../../src/lib/errors.ts';
import type { FilingInput } from '../../src/reports/filing-input.ts';

/** A good unpaid_debt filing on the given tax ID (TR). */
export const claimInput = (taxId: string, overrides: Partial<FilingInput> = {}): FilingInput => ({
  companyName: 'Dosya Lojistik A.Ş.',
  taxId,
  country: 'TR',
  city: 'Bursa',
  type: 'unpaid_debt',
  eventDate: '2026-09-30',
  amount: 48000,
  currency: 'TRY',
  description: 'Freight invoices of August unpaid.',
  ...overrides,
});

/** For assert.rejects: a DomainError of this kind (and message). */
export const refusedWith = (kind: DomainError['kind'], message?: RegExp) => (error: unknown) => {
  assert.ok(error instanceof DomainError, String(error));
  assert.equal(error.kind, kind, error.message);
  if (message) assert.match(error.message, message);
  return true;
};
