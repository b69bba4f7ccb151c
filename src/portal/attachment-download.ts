/**
 * An attachment sent as a download (D29, D33): always `Content-Disposition: attachment`, the
 * stored type (the one its content was checked to be), `X-Content-Type-Options: nosniff`, never
 * cached. Whoever may not see it gets the same 404 as for an id that does not exist.
 */
import type { FastifyReply } from 'fastify';
import { attachmentDisposition, type AttachmentDownload } from '../reports/attachments.ts';
import { DomainError } from '../lib/errors.ts';
import { notFoundError } from './portal-errors.ts';

/** A file as a download; a `not_found` refusal of `fetch` is the portal's 404 page. */
export async function sendDownload(reply: FastifyReply, fetch: () => Promise<{ contentType: string; disposition: string; content: Buffer | Uint8Array }>) {
  let file;
  try {
    file = await fetch();
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') throw notFoundError();
    throw error;
  }
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', file.disposition)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(file.content);
}

/** A report's attachment (D29), as the reports' use case `attachment` gives it. */
export async function sendAttachment(reply: FastifyReply, fetch: () => Promise<AttachmentDownload>) {
  return sendDownload(reply, async () => {
    const file = await fetch();
    return { ...file, disposition: attachmentDisposition(file.fileName) };
  });
}
