/** What the portal's routes receive (narrow it with Pick<> in a feature that needs less). */
import type { Transport } from '../http/transport.ts';
import type { Clock } from '../lib/clock.ts';
import type { SearchUseCaseDeps } from '../search/answer-search.ts';
import type { Services } from '../services.ts';

export interface PortalDeps {
  clock: Clock;
  /** D6: decides the cookies' Secure flag and names (cookies.ts). */
  transport: Transport;
  /** The search use case the API uses (D28: the same answer). */
  searchUseCase: SearchUseCaseDeps;
  countryCodes: readonly string[];
  /**
   * The address people reach the service at (config.publicUrl): the one-time links shown in the
   * console and the member's pages, the API address on the key page, and the origin a form may be
   * posted from besides the request's own (sessions.hooks.ts).
   */
  publicUrl: string;
  /** The use cases, built once by the composition root (src/services.ts). */
  services: Services;
}
