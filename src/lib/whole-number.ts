/**
 * The one reading of a whole number for every setting and flag (environment, config, CLI):
 * optional surrounding spaces, decimal digits, within [min, max]. The message names the setting
 * and repeats the value given, as every entry point reports it.
 */
export function readWholeNumber(name: string, raw: string | number, min: number, max: number): { value: number } | { problem: string } {
  const n = typeof raw === 'number' ? raw : /^-?[0-9]+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) return { problem: `${name} must be a whole number from ${min} to ${max}, got '${raw}'` };
  return { value: n };
}
