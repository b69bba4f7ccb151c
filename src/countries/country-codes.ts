/**
 * The codes of every country the catalogue covers (D22), without the validators: the settings
 * check needs only the codes, and loading stdnum for them cost a usage error ~0.3 s.
 */
import catalogueJson from './catalogue.json' with { type: 'json' };

/** Every country stdnum covers; the full list before the operator's switch. */
export const ALL_COUNTRY_CODES: readonly string[] = (catalogueJson as Array<{ code: string }>).map((c) => c.code);
