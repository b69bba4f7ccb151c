/** `serve --demo`: fills an empty database with the demo installation and hands out a key. */
import { randomBytes } from 'node:crypto';
import type { CountryCatalogue } from '../countries/catalogue.ts';
import { findUserByEmailNorm } from '../users/users.repository.ts';
import { inviteUser, normaliseEmail, setDemoPassword } from '../users/users.service.ts';
import type { Clock } from '../lib/clock.ts';
import { importLines, type ImportEngine } from '../import/import.service.ts';
import type { RetentionSettings } from '../retention/retention-settings.ts';
import { issueKey } from '../keys/keys.service.ts';
import { countMembers, findMemberByRef } from '../members/members.repository.ts';
import { addMember, setMember } from '../members/members.service.ts';
import { DEMO_MEMBER_REF, DEMO_MEMBERS, demoCompanies } from './demo-data.ts';
import type { Db } from '../db/types.ts';

/** The demo's portal sign-in (D27): a member_admin of the demo member, a new password each start. */
export interface DemoPortalUser {
  email: string;
  password: string;
}

export const DEMO_PORTAL_EMAIL = 'demo@example.com';

export type DemoOutcome =
  | { kind: 'created'; key: string; companies: number; portal: DemoPortalUser }
  | { kind: 'new-key'; key: string; portal: DemoPortalUser }
  | { kind: 'untouched' };

/** Creates the demo portal user if missing and gives it a freshly generated password (only the hash is kept). */
async function prepareDemoPortalUser(db: Db, clock: Clock): Promise<DemoPortalUser> {
  if (!(await findUserByEmailNorm(db, normaliseEmail(DEMO_PORTAL_EMAIL)))) {
    await inviteUser(db, clock, { email: DEMO_PORTAL_EMAIL, role: 'member_admin', memberRef: DEMO_MEMBER_REF, createdBy: 'demo' });
  }
  const password = randomBytes(12).toString('base64url');
  await setDemoPassword(db, clock, DEMO_PORTAL_EMAIL, password, 'Demo Admin');
  return { email: DEMO_PORTAL_EMAIL, password };
}

/** `retention`: the server's D34 settings (a demo report already past its end is imported `expired`); default D34's own. */
export async function prepareDemo(
  engine: ImportEngine,
  clock: Clock,
  countries: CountryCatalogue,
  dailyLimit: number,
  retention?: RetentionSettings,
): Promise<DemoOutcome> {
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
      { countries, clock, ...(retention ? { retention } : {}) },
    );
    const issued = await issueKey(db, clock, DEMO_MEMBER_REF, dailyLimit);
    return { kind: 'created', key: issued.key, companies: companies.length, portal: await prepareDemoPortalUser(db, clock) };
  }
  // A demo database from an earlier start: only the key's digest was kept, so issue a new one.
  if (await findMemberByRef(db, DEMO_MEMBER_REF)) {
    const key = (await issueKey(db, clock, DEMO_MEMBER_REF, dailyLimit)).key;
    return { kind: 'new-key', key, portal: await prepareDemoPortalUser(db, clock) };
  }
  return { kind: 'untouched' };
}
