/**
 * What an import into an empty database has written so far, as a Bloom filter: "not written"
 * is certain, "maybe written" is checked in the database as before. A fresh load then skips the
 * look-ups of companies and report refs that cannot exist (at 10^6 companies, 2,000 statements
 * of 500 tax IDs and ~1,500 refs each, all of which found nothing), and stays exact: a line that
 * repeats an earlier line's company or ref is always looked up.
 *
 * 2^26 bits (8 MiB) and three probes: at 3×10^6 refs about 0.2 % of new refs are looked up for
 * nothing; at 3×10^7 about 40 %, and the import is as slow as before, never wrong. A Set of
 * the strings would take ~250 MB at 10^6 companies; a library (bloom-filters) brings a
 * dependency tree for these 30 lines.
 */
const BITS_LOG2 = 26;
const MASK = (1 << BITS_LOG2) - 1;
const PROBES = 3;

/** Two independent 32-bit hashes of a string (FNV-1a, and a multiply-xorshift), mixed. */
function hashes(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  return [a >>> 0, (b | 1) >>> 0];
}

export class WrittenFilter {
  private readonly bits = new Uint8Array(1 << (BITS_LOG2 - 3));

  add(text: string): void {
    const [a, b] = hashes(text);
    for (let i = 0; i < PROBES; i++) {
      const bit = (a + Math.imul(i, b)) & MASK;
      this.bits[bit >>> 3]! |= 1 << (bit & 7);
    }
  }

  /** False: certainly never added. True: maybe added. */
  mayHave(text: string): boolean {
    const [a, b] = hashes(text);
    for (let i = 0; i < PROBES; i++) {
      const bit = (a + Math.imul(i, b)) & MASK;
      if ((this.bits[bit >>> 3]! & (1 << (bit & 7))) === 0) return false;
    }
    return true;
  }
}
