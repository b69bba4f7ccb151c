/**
 * The portal's typed path parameters (TypeBox). An id in a path is read as text by the schema and
 * as a whole number by `idOf`: anything else is the portal's 404 page, as for an id that names
 * nothing (the member's webhook pages answer 400 instead: their schemas carry the pattern).
 */
import { Type } from 'typebox';
import { notFoundError } from './portal-errors.ts';

export const IdParams = Type.Object({ id: Type.String() });

/** `:id` of a path as a whole number, or the portal's 404. */
export function idOf(raw: string): number {
  if (!/^[0-9]{1,15}$/.test(raw)) throw notFoundError();
  return Number(raw);
}
