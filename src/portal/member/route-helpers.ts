/** Small pieces the member routes share. */
import type { FastifyRequest } from 'fastify';
import type { PortalDeps } from '../portal-deps.ts';

type Body = Record<string, unknown>;

/** A form field as text ('' when absent or repeated). */
export const field = (request: FastifyRequest, name: string): string => {
  const value = ((request.body ?? {}) as Body)[name];
  return typeof value === 'string' ? value : '';
};

/** Where members reach this server (RISKLOOKUP_PUBLIC_URL), for the curl and the invitation link. */
export function publicBaseOf(deps: PortalDeps): string {
  return deps.config.publicUrl.replace(/\/+$/, '');
}
