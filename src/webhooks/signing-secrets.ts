/**
 * The secrets a delivery is signed with (D32, D35): the endpoint's current one, and its previous
 * one while that is still valid (Standard Webhooks' space-separated signatures during a rotation).
 * They are stored sealed (key-ring.ts) and opened just before signing, in the thread that signs:
 * `serve`'s sending thread, which has the process's ring (the same process: D35's "every process
 * uses the same ring"), or the calling thread (tests). Opening one is an AES-GCM decryption, ~60 µs
 * of the serving thread a delivery when it was done there (issue 30: a quarter of what a delivery
 * cost the thread that answers searches).
 */
import { SecretUnreadableError, type KeyRing } from '../secrets/key-ring.ts';
import { openColumn, WEBHOOK_PREVIOUS_SECRET, WEBHOOK_SECRET } from '../secrets/secret-columns.ts';

/** An endpoint's signing secrets as its row holds them, sealed. */
export interface SealedSigningSecrets {
  readonly endpointId: number;
  readonly current: string;
  readonly previous: string | null;
  /** Until when the previous one signs too (ms); null: there is none. */
  readonly previousUntil: number | null;
  /** The attempt's start (ms): the previous secret signs when it is valid then. */
  readonly at: number;
}

/** A previous secret that could not be opened: the delivery is signed with the current one only. */
export interface SecretWarning {
  readonly endpoint: number;
  readonly keyId: string | null;
  readonly reason: string;
}

/**
 * The secrets that sign now: the current one, and the previous one while it is valid. A previous
 * secret the ring cannot open (its key lost, and the secret rotated since) is left out with a
 * warning: the receiver verifies with the current one. SecretUnreadableError for the current one.
 */
export function openSigningSecrets(sealed: SealedSigningSecrets, ring: Pick<KeyRing, 'open'>): { secrets: string[]; warning: SecretWarning | null } {
  const current = openColumn(ring, WEBHOOK_SECRET, sealed.endpointId, sealed.current);
  if (sealed.previous === null || sealed.previousUntil === null || sealed.previousUntil <= sealed.at) return { secrets: [current], warning: null };
  try {
    return { secrets: [current, openColumn(ring, WEBHOOK_PREVIOUS_SECRET, sealed.endpointId, sealed.previous)], warning: null };
  } catch (error) {
    if (!(error instanceof SecretUnreadableError)) throw error;
    return { secrets: [current], warning: { endpoint: sealed.endpointId, keyId: error.keyId, reason: error.message } };
  }
}
