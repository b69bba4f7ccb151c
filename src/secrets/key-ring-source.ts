/**
 * Where the key ring comes from (D35): `RISKLOOKUP_SECRET_KEYS` (the ring's text), or
 * `RISKLOOKUP_SECRET_KEYS_FILE` (a file holding it; `#` starts a comment). Every process of one
 * installation must be given the same ring. Nothing here prints key material.
 */
import { readFileSync } from 'node:fs';
import { KeyRing, KeyRingError } from './key-ring.ts';

export const KEYS_VARIABLE = 'RISKLOOKUP_SECRET_KEYS';
export const KEYS_FILE_VARIABLE = 'RISKLOOKUP_SECRET_KEYS_FILE';

/** How to make a ring, for every refusal that lacks one. */
export const HOW_TO_MAKE_A_RING =
  `set ${KEYS_VARIABLE} to a key made with 'risklookup secrets generate-key' ` +
  `(export ${KEYS_VARIABLE}="$(risklookup secrets generate-key)"), or ${KEYS_FILE_VARIABLE} to a file holding it, ` +
  'the same on every server process and CLI; keep it outside the database and its backups (docs/operations.md, "Secret keys")';

/** The ring the environment gives, or null when it gives none; KeyRingError when it is unusable. */
export function keyRingFromEnv(env: NodeJS.ProcessEnv = process.env): KeyRing | null {
  const text = env[KEYS_VARIABLE]?.trim() ?? '';
  const file = env[KEYS_FILE_VARIABLE]?.trim() ?? '';
  if (text !== '' && file !== '') throw new KeyRingError(`set ${KEYS_VARIABLE} or ${KEYS_FILE_VARIABLE}, not both`);
  if (text !== '') return KeyRing.parse(text, KEYS_VARIABLE);
  if (file === '') return null;
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    throw new KeyRingError(`${KEYS_FILE_VARIABLE} names ${file}, which cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return KeyRing.parse(content, `${KEYS_FILE_VARIABLE} (${file})`);
}

/**
 * The ring, for a start that reads or writes secrets (`serve`, `user invite`, `user reset`,
 * `secrets rotate`): refuses with what to do when the environment gives none.
 */
export function requireKeyRing(what: string, env: NodeJS.ProcessEnv = process.env): KeyRing {
  const ring = keyRingFromEnv(env);
  if (ring) return ring;
  throw new KeyRingError(
    `${what} needs the secret key ring that encrypts operators' TOTP seeds and webhook signing secrets (D35), and none is set: ${HOW_TO_MAKE_A_RING}`,
  );
}
