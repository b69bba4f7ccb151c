/**
 * Which driver errors mean "the database cannot answer right now" (503, D2 reason
 * `service_unavailable`) rather than a fault of ours (500): the server is down, restarting,
 * unreachable, out of connections, or too slow (statement or connection timeout), and SQLite's
 * lock wait running out.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);
// 08: connection exception; 57P01-57P03: shutdown / cannot connect now; 57014: statement timeout;
// 53300: too many connections; 40001/40P01: serialization failure / deadlock (retryable).
const PG_CODES = /^(08...|57P0[123]|57014|53300|40001|40P01)$/;
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connection timeout|Client has encountered a connection error/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLITE_CODES.has(code) || PG_CODES.test(code))) return true;
  if (typeof message === 'string' && MESSAGES.test(message)) return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error && isDatabaseUnavailable(cause);
}
