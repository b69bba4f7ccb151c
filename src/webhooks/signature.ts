/**
 * Standard Webhooks 1.0 signing, symmetric scheme: a secret of random bytes shown as
 * `whsec_<base64>`, and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`,
 * one per valid secret, space-separated (zero-downtime rotation). Pure: no I/O.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** The specification asks for 24 to 64 bytes; 32 is HMAC-SHA256's own key size. */
const SECRET_BYTES = 32;

/** A new signing secret, `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The key bytes of a `whsec_` secret. */
function keyOf(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a signing secret starts with whsec_');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  if (key.length < 24) throw new Error('a signing secret holds at least 24 bytes');
  return key;
}

/** The signed content: a message id and a timestamp may hold no `.` (the specification's rule). */
export function signedContent(webhookId: string, timestampSeconds: number, body: string): string {
  if (webhookId.includes('.')) throw new Error('a webhook-id may not contain a full stop');
  if (!Number.isInteger(timestampSeconds)) throw new Error('a webhook-timestamp is whole seconds');
  return `${webhookId}.${timestampSeconds}.${body}`;
}

/** The `webhook-signature` header: one `v1,` signature per secret, in the order given. */
export function signatureHeader(secrets: readonly string[], webhookId: string, timestampSeconds: number, body: string): string {
  if (secrets.length === 0) throw new Error('at least one signing secret is needed');
  const content = signedContent(webhookId, timestampSeconds, body);
  return secrets.map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(content, 'utf8').digest('base64')}`).join(' ');
}
