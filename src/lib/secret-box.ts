/**
 * Seals the secrets the service must read back (D35: webhook signing secrets, TOTP seeds) before
 * they reach the database, and opens them again. The key ring of `RISKLOOKUP_SECRET_KEYS`
 * (AES-256-GCM, every process the same ring) implements it; features depend on this interface
 * only, so that the ring can be rotated without them.
 */
export interface SecretBox {
  /** The sealed form, safe to store: nothing of `plain` can be read from it without the ring. */
  seal(plain: string): string;
  /** The plain secret; throws when `sealed` was not sealed by this ring or was altered. */
  open(sealed: string): string;
}
