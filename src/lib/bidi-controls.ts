/**
 * What filed text may not hold: the one rule for every free-text field (issue 27, finding 8):
 * names, emails, company names and cities, case fields, descriptions, withdrawal notes and
 * moderation reasons, from the portal, the CLI and the import alike.
 *
 * Unicode's bidirectional embedding, override and isolate controls (U+202A–U+202E,
 * U+2066–U+2069) reverse the text around them when shown: a file name `invoice\u202Efdp.exe` reads
 * as `invoiceexe.pdf`, and a note or a name stored with one can make an operator's page say
 * something else. Control characters (C0 and C1: NUL, BEL, ESC…) ring terminals, start escape
 * sequences in a log or a CLI listing, and NUL cannot be stored by PostgreSQL at all. Text with
 * lines (a description, a note) may keep line breaks and tabs; nothing else. File names and
 * values echoed in a refusal lose such characters instead (`withoutBidiControls`).
 */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/u;

const ALL_BIDI_CONTROLS = new RegExp(BIDI_CONTROLS.source, 'gu');
const CONTROLS = /\p{Cc}/u;
const CONTROLS_BUT_LINES = /[^\P{Cc}\t\n\r]/u;

export function hasBidiControls(text: string): boolean {
  return BIDI_CONTROLS.test(text);
}

/**
 * Whether `text` holds a character no filed text may hold: a bidi control, or a control
 * character (with `lines`, line breaks and tabs are allowed).
 */
export function hasForbiddenCharacters(text: string, options: { lines?: boolean } = {}): boolean {
  return (options.lines ? CONTROLS_BUT_LINES : CONTROLS).test(text) || BIDI_CONTROLS.test(text);
}

export function withoutBidiControls(text: string): string {
  return text.replace(ALL_BIDI_CONTROLS, '');
}

const ALL_FORBIDDEN = new RegExp(`${CONTROLS.source}|${BIDI_CONTROLS.source}`, 'gu');

/** `text` without any character `hasForbiddenCharacters` finds (for a typed value kept only as a key, never refused). */
export function withoutForbiddenCharacters(text: string): string {
  return text.replace(ALL_FORBIDDEN, '');
}
