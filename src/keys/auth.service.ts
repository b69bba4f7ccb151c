/** Authentication (D16, D17): the presented header to a known, permitted key holder. */
import type { Db } from '../db/types.ts';
import { digestApiKey } from './api-key.ts';
import { checkPresentedKey, invalidKey } from './auth-rules.ts';
import { findKeyHolderByDigest, type KeyHolderRow } from './keys.repository.ts';
import type { FindKeyHolder } from './key-holder-reads.ts';

/**
 * Returns the key's holder (whatever its state) or throws 401. The caller runs D17's 403 checks
 * with `checkKeyHolder` after recording who the key belongs to, so that even a revoked key's
 * request shows that key's allowance (D3). No cache: a revocation or suspension takes effect on
 * the very next request of every process (D17 asks for 5 s at most). The key's use on `day` comes
 * with it (D18's check needs no second statement).
 * @param knownDigest the header's digest when the caller has it (http/admission.hooks.ts), so that
 *   a request digests its key once.
 * @param find the look-up (key-holder-reads.ts shares one statement among a turn's requests).
 */
export async function identifyKeyHolder(
  db: Db,
  header: string | undefined,
  day: string,
  knownDigest?: string | null,
  find: FindKeyHolder = (digest, on) => findKeyHolderByDigest(db, digest, on),
): Promise<KeyHolderRow> {
  // The digest admission already computed from the same header (null: no well-formed key there,
  // which checkPresentedKey refuses with D17's reason).
  const digest = knownDigest ?? digestApiKey(checkPresentedKey(header));
  const holder = await find(digest, day);
  if (!holder) throw invalidKey();
  return holder;
}
