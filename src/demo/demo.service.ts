/** `serve --demo`: fills an empty database with the demo installation and hands out a key. */
import type { CountryCatalogue } from '../countries/catalogue.ts';
import type { Clock } from '../lib/clock.ts';
import { importLines, type ImportEngine } from '../import/import.service.ts';
import { issueKey } from '../keys/keys.service.ts';
import { countMembers, findMemberByRef } from '../members/members.repository.ts';
import { addMember, setMember } from '../members/members.service.ts';
import { DEMO_MEMBER_REF, DEMO_MEMBERS, demoCompanies } from './demo-data.ts';

export type DemoOutcome = { kind: 'created'; key: string; companies: number } | { kind: 'new-key'; key: string } | { kind: 'untouched' };

export async function prepareDemo(engine: ImportEngine, clock: Clock, countries: CountryCatalogue, dailyLimit: number): Promise<DemoOutcome> {
  const { db } = engine;
  if ((await countMembers(db)) === 0) {
    for (const m of DEMO_MEMBERS) await addMember(db, clock, { ...m });
    await addMember(db, clock, { ref: 'M-1006', name: 'Sınır Kapısı Lojistik A.Ş.', tier: 'full', agreementSigned: true });
    await setMember(db, clock, 'M-1006', { status: 'suspended' });
    const companies = demoCompanies();
    await importLines(
      engine,
      companies.map((c) => JSON.stringify(c)),
      'demo data',
      { countries, clock },
    );
    const issued = await issueKey(db, clock, DEMO_MEMBER_REF, dailyLimit);
    return { kind: 'created', key: issued.key, companies: companies.length };
  }
  // A demo database from an earlier start: only the key's digest was kept, so issue a new one.
  if (await findMemberByRef(db, DEMO_MEMBER_REF)) {
    return { kind: 'new-key', key: (await issueKey(db, clock, DEMO_MEMBER_REF, dailyLimit)).key };
  }
  return { kind: 'untouched' };
}
