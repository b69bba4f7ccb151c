/** What the portal's routes receive (narrow it with Pick<> in a feature that needs less). */
import type { AuditWriter } from '../audit/audit-writer.ts';
import type { Config } from '../config.ts';
import type { Transport } from '../http/transport.ts';
import type { Clock } from '../lib/clock.ts';
import type { KeyRing } from '../secrets/key-ring.ts';
import type { SearchUseCaseDeps } from '../search/answer-search.ts';
import type { Services } from '../services.ts';
import type { Db } from '../db/types.ts';

export interface PortalDeps {
  db: Db;
  clock: Clock;
  config: Config;
  /** Where members reach this server (RISKLOOKUP_PUBLIC_URL): the API's address and invitation links on the pages. */
  publicUrl: string;
  /** D6: decides the cookies' Secure flag and names (cookies.ts). */
  transport: Transport;
  audit: AuditWriter;
  /** The search use case the API uses (D28: the same answer). */
  searchUseCase: SearchUseCaseDeps;
  countryCodes: readonly string[];
  /** D35: opens and seals operators' TOTP seeds. */
  keyRing: KeyRing;
  /** The use cases, built once by the composition root (src/services.ts). */
  services: Services;
}
