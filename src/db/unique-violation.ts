/**
 * Whether a driver error is a unique-constraint violation, on either engine: repositories turn it
 * into a DomainError('conflict') at their edge, so no service checks before it inserts.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // better-sqlite3: SQLITE_CONSTRAINT_UNIQUE (or _PRIMARYKEY); pg: SQLSTATE 23505.
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
