/**
 * A key's "last used" day (the portal's API page, `api_keys.last_used_day`), recorded once a day
 * per key and process: the key look-up of every search reads no column for it
 * (keys.repository.ts `markKeyUsed`).
 *
 * The first answer of a key's day waits until the day is recorded, and so does every answer of
 * that key given while the write is under way: a member who has a 200 in hand and opens the API
 * page sees the key used today, never "never" beside "Used today 1 / 100". A write that fails
 * is logged and forgotten (the next answer tries again); the answer is still given, since it is
 * charged already and an error takes nothing back (D18).
 */

/** Keys remembered (one entry per key; 10^4 members have at most 10^4 active keys). */
const MAX_REMEMBERED = 100_000;

/** Where a failed write is told (a request's logger). */
export interface WarningLog {
  warn(details: object, message: string): void;
}

interface Mark {
  day: string;
  /** Settles (never rejects) once the write is done or has failed; null once done. */
  pending: Promise<void> | null;
}

export class KeyLastUse {
  private readonly marks = new Map<number, Mark>();

  constructor(private readonly write: (keyId: number, day: string) => Promise<void>) {}

  /**
   * Null when this process has recorded the key's use on `day`; else a promise, to await before
   * answering, that settles once it is recorded (or could not be: a warning on `log`).
   */
  record(keyId: number, day: string, log: WarningLog): Promise<void> | null {
    const known = this.marks.get(keyId);
    if (known?.day === day) return known.pending;
    if (this.marks.size >= MAX_REMEMBERED) this.marks.clear();
    const mark: Mark = { day, pending: null };
    this.marks.set(keyId, mark);
    mark.pending = this.write(keyId, day).then(
      () => {
        mark.pending = null;
      },
      (error: unknown) => {
        if (this.marks.get(keyId) === mark) this.marks.delete(keyId);
        log.warn({ err: error }, "could not record the key's last use");
      },
    );
    return mark.pending;
  }
}
