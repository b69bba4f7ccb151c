/**
 * Unicode's bidirectional embedding, override and isolate controls (U+202A–U+202E,
 * U+2066–U+2069). Shown as they are, they reverse the text around them: a file name
 * `invoice\u202Efdp.exe` reads as `invoiceexe.pdf`, and an email or a name stored with one can make
 * an operator's page say something else. Names, emails and filed text refuse them; file names
 * and values echoed in a refusal lose them.
 */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/u;

const ALL_BIDI_CONTROLS = new RegExp(BIDI_CONTROLS.source, 'gu');

export function hasBidiControls(text: string): boolean {
  return BIDI_CONTROLS.test(text);
}

export function withoutBidiControls(text: string): string {
  return text.replace(ALL_BIDI_CONTROLS, '');
}
