import { Type, type TUnsafe } from 'typebox';

/**
 * A string that is one of `values`, as one `{type: 'string', enum}` — not a union of literals,
 * which OpenAPI viewers show as a list of one-value alternatives and the serialiser has to try
 * one by one.
 */
export function stringEnum<T extends string>(values: readonly T[], options: { description?: string } = {}): TUnsafe<T> {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
}
