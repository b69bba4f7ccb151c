/** What the hooks learn about a request, carried on it for the later hooks. */
import type { App } from './app-type.ts';
import type { KeyHolderRow } from '../keys/keys.repository.ts';
import type { Allowance } from '../quota/allowance.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key's holder once the key is known (even a revoked key's, D3). */
    keyHolder: KeyHolderRow | null;
    /** The allowance this request was charged to or checked against (D3). */
    allowance: Allowance | null;
    /** Companies returned, for the audit record (D21). */
    resultCount: number | null;
    /** The companies the answer found, counted as lookups for the disclosure (D34). */
    foundCompanyIds: readonly number[] | null;
    /** Shed by admission (D26): answered 503 with no database work at all, not even for headers. */
    shed: boolean;
    /**
     * The client's address as the request arrived, for the audit record (D21): once the client
     * has closed its connection, `request.ip` is undefined (the socket is gone).
     */
    clientAddress: string | null;
    /** Its audit record (D21) was handed to the writer (search.routes.ts): once per request. */
    audited: boolean;
  }
}

export function decorateRequests(app: App) {
  app.decorateRequest('keyHolder', null);
  app.decorateRequest('allowance', null);
  app.decorateRequest('resultCount', null);
  app.decorateRequest('foundCompanyIds', null);
  app.decorateRequest('shed', false);
  app.decorateRequest('clientAddress', null);
  app.decorateRequest('audited', false);
}
