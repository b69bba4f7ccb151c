/**
 * The key ring of D35: secrets the service must read back (operators' TOTP seeds, webhook signing
 * secrets) are stored sealed with AES-256-GCM under the ring's newest key, and opened with
 * whichever key sealed them. Pure: the ring's text comes from key-ring-source.ts.
 *
 * A key is written `ID:rlsk1_<43 base64url characters>` (32 random bytes); the ring is one or
 * more of them, separated by commas, spaces or new lines, the LAST one newest. The `rlsk1_`
 * prefix lets secret scanners and our log redaction (src/lib/redact.ts) recognise key material.
 *
 * A sealed value is `rls1:ID:<base64url of 12-byte IV, ciphertext, 16-byte tag>`; the additional
 * data binds it to where it is stored (`table.column#row id`), so a sealed value copied to another
 * row or column does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const KEY_MATERIAL_PREFIX = 'rlsk1_';
const SEALED_PREFIX = 'rls1';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const KEY_MATERIAL = /^rlsk1_([A-Za-z0-9_-]{43})$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The ring's text cannot be used; the message never quotes key material. */
export class KeyRingError extends Error {
  override readonly name = 'KeyRingError';
}

/** A sealed value that this ring cannot open: a key it lacks, or the value altered or moved. */
export class SecretUnreadableError extends Error {
  override readonly name = 'SecretUnreadableError';
  constructor(
    readonly keyId: string | null,
    reason: string,
  ) {
    super(reason);
  }
}

/** Where a sealed value lives: its additional authenticated data. */
export function sealContext(table: string, column: string, rowId: number): string {
  return `${table}.${column}#${rowId}`;
}

/** A new key entry for a ring: `ID:rlsk1_…`. The id defaults to `k` and today's date and 4 random hex digits. */
export function generateKeyEntry(id?: string, now: Date = new Date()): string {
  const keyId = id ?? `k${now.toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(2).toString('hex')}`;
  if (!KEY_ID.test(keyId)) throw new KeyRingError(`a key id is 1 to 32 letters, digits, '-' or '_'; got '${keyId}'`);
  return `${keyId}:${KEY_MATERIAL_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export class KeyRing {
  readonly #keys: ReadonlyMap<string, Buffer>;
  /** The key that seals: the ring's last entry. */
  readonly newestId: string;

  private constructor(keys: Map<string, Buffer>, newestId: string) {
    this.#keys = keys;
    this.newestId = newestId;
  }

  /**
   * Reads a ring's text (`source` names where it came from, for the messages). Every problem is
   * reported together; none quotes a key.
   */
  static parse(text: string, source: string): KeyRing {
    const entries = text
      .split('\n')
      .map((line) => line.replace(/#.*$/, ''))
      .join(' ')
      .split(/[\s,]+/)
      .filter(Boolean);
    const problems: string[] = [];
    const keys = new Map<string, Buffer>();
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      const colon = entry.indexOf(':');
      const id = colon === -1 ? '' : entry.slice(0, colon);
      const material = KEY_MATERIAL.exec(colon === -1 ? entry : entry.slice(colon + 1));
      if (!KEY_ID.test(id) || !material) {
        problems.push(`entry ${i + 1} is not ID:${KEY_MATERIAL_PREFIX}<43 characters> (make one with 'risklookup secrets generate-key')`);
        return;
      }
      const key = Buffer.from(material[1]!, 'base64url');
      if (keys.has(id)) problems.push(`key id '${id}' appears twice`);
      if (seen.has(key.toString('hex'))) problems.push(`entry ${i + 1} ('${id}') repeats another entry's key`);
      seen.add(key.toString('hex'));
      keys.set(id, key);
    });
    if (entries.length === 0) problems.push('it holds no key');
    if (problems.length > 0) throw new KeyRingError(`the secret key ring in ${source} cannot be used:\n  - ${problems.join('\n  - ')}`);
    return new KeyRing(keys, entries.at(-1)!.split(':')[0]!);
  }

  /** A ring of one new key, for `serve --demo` and the tests when none is given. */
  static generate(id = 'generated'): KeyRing {
    return KeyRing.parse(generateKeyEntry(id), 'a generated ring');
  }

  /** The key ids, oldest first. */
  ids(): string[] {
    return [...this.#keys.keys()];
  }

  has(keyId: string): boolean {
    return this.#keys.has(keyId);
  }

  /**
   * The ring as text, to hand to child processes of the same server (`serve --workers` with a
   * generated demo ring). Never logged or printed.
   */
  toText(): string {
    return [...this.#keys].map(([id, key]) => `${id}:${KEY_MATERIAL_PREFIX}${key.toString('base64url')}`).join(',');
  }

  /** Seals `plaintext` under the newest key, bound to `context` (sealContext). */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#keys.get(this.newestId)!, iv);
    cipher.setAAD(Buffer.from(`${SEALED_PREFIX}:${this.newestId}:${context}`, 'utf8'));
    const body = Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${SEALED_PREFIX}:${this.newestId}:${body.toString('base64url')}`;
  }

  /** Opens a value sealed for `context`; SecretUnreadableError when it cannot. */
  open(sealed: string, context: string): string {
    const keyId = keyIdOf(sealed);
    if (keyId === null) throw new SecretUnreadableError(null, 'the value is not sealed (rls1:ID:…)');
    const key = this.#keys.get(keyId);
    if (!key) throw new SecretUnreadableError(keyId, `it was sealed under key '${keyId}', which the ring does not hold`);
    const body = Buffer.from(sealed.slice(SEALED_PREFIX.length + keyId.length + 2), 'base64url');
    if (body.length < IV_BYTES + TAG_BYTES) throw new SecretUnreadableError(keyId, 'the sealed value is cut short');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(`${SEALED_PREFIX}:${keyId}:${context}`, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadableError(keyId, `it does not open under key '${keyId}': altered, or moved from another row`);
    }
  }
}

/** The id of the key a value was sealed under, or null when the value is not sealed. */
export function keyIdOf(value: string): string | null {
  const m = /^rls1:([A-Za-z0-9_-]{1,32}):[A-Za-z0-9_-]+$/.exec(value);
  return m ? m[1]! : null;
}
