/** Keeps API keys out of logs and audit records (D21), wherever a client put them, and key-ring keys (D35). */
const SECRET_IN_URL = /([?&](?:api_key|apikey|key|token|access_token)=)[^&#]*/gi;

/** Our keys (D16): this prefix and 64 letters and digits in all (src/keys/api-key.ts). */
const KEY_PREFIX = 'rlk1';
const KEY_LENGTH = 64;

/**
 * What may stand between the characters of a pasted key: one to three of white space, `+`, `-`,
 * `_`, `.`, `,`, or their percent-escapes. A key broken by a line wrap or pasted in two halves is
 * still a key; a longer gap ends it.
 */
const GAP = /^(?:[\s+\-_.,]|%[0-9A-Fa-f]{2}){1,3}/;
const ALNUM = /[A-Za-z0-9]/;

/**
 * Spans `[start, end)` of `text` that hold a key, also when its characters are split by short gaps
 * (a space, a line break, `%20`). `accept` decides whether the 64 characters found are a key (the
 * redaction takes any such run; a refusal wants the checksum too).
 */
export function findKeySpans(text: string, accept: (candidate: string) => boolean = () => true): Array<[number, number]> {
  // A key is 64 characters without its gaps: a shorter text holds none (every search's q, type and
  // country pass here twice, issue 28).
  if (text.length < KEY_LENGTH) return [];
  const spans: Array<[number, number]> = [];
  let chars = '';
  let positions: number[] = [];
  const closeRun = () => {
    for (let i = chars.indexOf(KEY_PREFIX); i !== -1 && i + KEY_LENGTH <= chars.length; i = chars.indexOf(KEY_PREFIX, i + 1)) {
      const candidate = chars.slice(i, i + KEY_LENGTH);
      if (accept(candidate)) {
        spans.push([positions[i]!, positions[i + KEY_LENGTH - 1]! + 1]);
        i += KEY_LENGTH - 1;
      }
    }
    chars = '';
    positions = [];
  };
  for (let i = 0; i < text.length;) {
    const c = text[i]!;
    if (ALNUM.test(c)) {
      chars += c;
      positions.push(i);
      i++;
      continue;
    }
    const gap = chars === '' ? null : GAP.exec(text.slice(i, i + 9));
    // A gap only joins what stands on both of its sides.
    if (gap && ALNUM.test(text[i + gap[0].length] ?? '')) {
      i += gap[0].length;
      continue;
    }
    closeRun();
    i += gap ? gap[0].length : 1;
  }
  closeRun();
  return spans;
}

/** A key of the secret key ring (src/secrets/key-ring.ts): `rlsk1_` and 43 base64url characters. */
const RING_KEY = /rlsk1_[A-Za-z0-9_-]{43}/g;

export function redactSecrets(text: string): string {
  let out = text;
  const spans = findKeySpans(text);
  for (let i = spans.length - 1; i >= 0; i--) out = out.slice(0, spans[i]![0]) + '[REDACTED]' + out.slice(spans[i]![1]);
  // Each pattern only where its fixed part is (every search's q, type and country pass here: the
  // two replaces took 0.35 µs a call where these tests take 0.04, issue 28).
  if (out.includes('=')) out = out.replace(SECRET_IN_URL, '$1[REDACTED]');
  return out.includes('rlsk1_') ? out.replace(RING_KEY, '[REDACTED]') : out;
}
