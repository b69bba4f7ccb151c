/**
 * A real AES-256-GCM SecretBox for tests (D35's algorithm; the service's key ring binds the same
 * interface): a random 96-bit nonce per seal, the tag checked on open, so a tampered or foreign
 * value fails instead of opening to something else.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretBox } from '../../src/lib/secret-box.ts';

export function aesGcmSecretBox(key: Buffer = randomBytes(32)): SecretBox & { key: Buffer } {
  if (key.length !== 32) throw new Error('AES-256 needs a 32-byte key');
  return {
    key,
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['gcm1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'gcm1' || !iv || !tag || body === undefined) throw new Error('not a value sealed by this box');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
