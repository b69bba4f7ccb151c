/**
 * Reading a multipart form (@fastify/multipart with attachFieldsToBody): the filing form, the
 * dispute forms. A field as text; the files of `attachments` as uploads for the services to check.
 */
import type { AttachmentUpload } from '../reports/attachments.ts';

/** A file part may come without a `filename` (Node's FormData sends an empty file input so). */
export type MultipartField = { type: 'field'; value: unknown } | { type: 'file'; filename?: string; mimetype: string; toBuffer(): Promise<Buffer> };

export type MultipartBody = Record<string, MultipartField | MultipartField[] | undefined>;

/** The parsed body of a multipart request ({} when there is none). */
export function multipartBodyOf(request: { body: unknown }): MultipartBody {
  return (request.body ?? {}) as MultipartBody;
}

/** Every value of a repeated field (check boxes). */
export function allFieldsOf(body: MultipartBody, name: string): string[] {
  return [body[name]].flat().flatMap((p) => (p?.type === 'field' && typeof p.value === 'string' ? [p.value] : []));
}

export function fieldOf(body: MultipartBody, name: string): string {
  const part = body[name];
  const one = Array.isArray(part) ? part[0] : part;
  return one?.type === 'field' && typeof one.value === 'string' ? one.value.slice(0, 4000) : '';
}

export async function uploadsOf(body: MultipartBody): Promise<AttachmentUpload[]> {
  const parts = [body.attachments].flat().filter((p): p is Extract<MultipartField, { type: 'file' }> => p?.type === 'file');
  const uploads: AttachmentUpload[] = [];
  for (const part of parts) {
    const content = await part.toBuffer();
    const fileName = part.filename ?? '';
    // A file input left empty still sends a part, without a name or content. One with content
    // but no name is checked like any file, and refused: no name can end in .pdf (issue 27, finding 11).
    if (fileName === '' && content.length === 0) continue;
    uploads.push({ fileName, declaredType: part.mimetype, content });
  }
  return uploads;
}
