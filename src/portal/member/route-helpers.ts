/** Small pieces the member routes share. */
import type { PortalDeps } from '../portal-deps.ts';

/** Where members reach this server (RISKLOOKUP_PUBLIC_URL), for the curl and the invitation link. */
export function publicBaseOf(deps: Pick<PortalDeps, 'publicUrl'>): string {
  return deps.publicUrl.replace(/\/+$/, '');
}
