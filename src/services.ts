/**
 * The composition root (issue 29): every feature's use cases built once from their factories,
 * each with the narrow dependencies it uses. `buildApp` builds them for the API and the portal,
 * each CLI command for its own run; routes and commands receive the services they call and stay
 * adapters (parse, call, render). A new feature adds its factory here.
 */
import type { Kysely } from 'kysely';
import type { Database } from './db/schema.ts';
import type { Clock } from './lib/clock.ts';
import { createMemberAdmin } from './operator/member-admin.service.ts';
import { createUserAdmin } from './operator/user-admin.service.ts';
import { createReportModeration } from './reports/moderation.service.ts';
import type { KeyRing } from './secrets/key-ring.ts';

export interface ServicesDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** D35: seals an operator's link's TOTP seed; a CLI command that needs none may leave it out. */
  keyRing?: KeyRing;
}

export function createServices({ db, clock, keyRing }: ServicesDeps) {
  return {
    memberAdmin: createMemberAdmin({ db, clock }),
    userAdmin: createUserAdmin({ db, clock, ...(keyRing ? { keyRing } : {}) }),
    moderation: createReportModeration({ db, clock }),
  };
}

export type Services = ReturnType<typeof createServices>;
