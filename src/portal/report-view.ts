/** Small pieces the report pages share: the id in the path, a status in the reader's language. */
import type { FastifyRequest } from 'fastify';
import type { ReportStatus } from '../reports/lifecycle.ts';
import type { MessageKey } from './messages/index.ts';
import { notFoundError } from './portal-errors.ts';

/** `:id` of the path as a whole number, or the portal's 404. */
export function idParam(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  if (!/^[0-9]{1,15}$/.test(raw)) throw notFoundError();
  return Number(raw);
}

export function statusLabel(tr: (key: MessageKey) => string, status: ReportStatus): string {
  return tr(`reports.status.${status}`);
}
