/**
 * Attachments of filed reports (D29): PDF, PNG or JPEG, at most 5 MB each and 3 per report,
 * checked by their content (magic bytes), never by the name or type the browser declares; the
 * declared ones must agree with the content. Kept in the database with their SHA-256, and
 * served only to the filing member's users and to operators, as downloads.
 */
import { withoutBidiControls } from '../lib/bidi-controls.ts';
import { createHash } from 'node:crypto';
import type { Db } from '../db/types.ts';
import { DomainError } from '../lib/errors.ts';
import type { ProblemCode } from '../lib/problems.ts';
import type { Actor } from './filing-rules.ts';
import { findAttachmentWithReport } from './filing.repository.ts';

export const MAX_ATTACHMENTS = 3;
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

export interface AttachmentUpload {
  fileName: string;
  /** The type the browser declared (multipart Content-Type); may be empty. */
  declaredType: string;
  content: Buffer;
}

export interface CheckedAttachment {
  fileName: string;
  /** The type the content is, never the declared one. */
  contentType: AllowedType;
  sizeBytes: number;
  sha256: string;
  content: Buffer;
}

type AllowedType = 'application/pdf' | 'image/png' | 'image/jpeg';

const KINDS: ReadonlyArray<{ type: AllowedType; magic: Buffer; extensions: readonly string[]; aliases: readonly string[] }> = [
  { type: 'application/pdf', magic: Buffer.from('%PDF-', 'latin1'), extensions: ['pdf'], aliases: ['application/x-pdf'] },
  { type: 'image/png', magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), extensions: ['png'], aliases: [] },
  { type: 'image/jpeg', magic: Buffer.from([0xff, 0xd8, 0xff]), extensions: ['jpg', 'jpeg'], aliases: ['image/jpg', 'image/pjpeg'] },
];

/** Declared types that say nothing (a browser that does not know the file). */
const UNKNOWN_TYPES = new Set(['', 'application/octet-stream']);

type RefusedKind = Extract<
  ProblemCode,
  'attachment.windows_program' | 'attachment.program' | 'attachment.web_page' | 'attachment.archive' | 'attachment.not_allowed_type'
>;

const REFUSED_WORDS: Record<RefusedKind, string> = {
  'attachment.windows_program': 'is a Windows program, not a document',
  'attachment.program': 'is a program, not a document',
  'attachment.web_page': 'is a web page or script, not a document',
  'attachment.archive': 'is a ZIP archive or an office file',
  'attachment.not_allowed_type': 'is not a PDF, PNG or JPEG file',
};

/** What the content is, when it is none of the allowed kinds, for a message a person understands. */
function refusedKindOf(content: Buffer): RefusedKind {
  if (content.subarray(0, 2).toString('latin1') === 'MZ') return 'attachment.windows_program';
  if (content.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))) return 'attachment.program';
  const head = content
    .subarray(0, 512)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (/^<(!doctype html|html|head|body|script|svg|\?xml)/.test(head)) return 'attachment.web_page';
  if (content.subarray(0, 4).equals(Buffer.from('PK\u0003\u0004', 'latin1'))) return 'attachment.archive';
  return 'attachment.not_allowed_type';
}

/** A file name safe to keep and to send back: no directories, no control or bidi characters, not too long. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = withoutBidiControls(base)
    .replace(/[\p{Cc}"]/gu, '')
    .trim()
    .slice(-200);
  return clean === '' ? 'attachment' : clean;
}

/** Checks one upload; throws DomainError('invalid') naming the file and what is wrong. */
export function checkAttachment(upload: AttachmentUpload): CheckedAttachment {
  const fileName = cleanFileName(upload.fileName);
  const { content } = upload;
  if (content.length === 0) throw new DomainError('invalid', `attachment '${fileName}' is empty`, { code: 'attachment.empty', params: { file: fileName } });
  if (content.length > MAX_ATTACHMENT_BYTES) {
    // No size: the portal reads a file only to one byte past the limit, so its size is not known.
    throw new DomainError('invalid', `attachment '${fileName}' is larger than 5 MB`, {
      code: 'attachment.too_large',
      params: { file: fileName, max: MAX_ATTACHMENT_BYTES / 1048576 },
    });
  }
  const kind = KINDS.find((k) => content.subarray(0, k.magic.length).equals(k.magic));
  if (!kind) {
    const refused = refusedKindOf(content);
    throw new DomainError('invalid', `attachment '${fileName}' ${REFUSED_WORDS[refused]}: attach a PDF, PNG or JPEG file`, {
      code: refused,
      params: { file: fileName },
    });
  }
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  if (!extension || !kind.extensions.includes(extension)) {
    throw new DomainError('invalid', `attachment '${fileName}' is a ${label(kind.type)} file but its name does not end in .${kind.extensions[0]}`, {
      code: 'attachment.wrong_extension',
      params: { file: fileName, kind: label(kind.type), extension: kind.extensions[0]! },
    });
  }
  const declared = upload.declaredType.split(';')[0]!.trim().toLowerCase();
  if (!UNKNOWN_TYPES.has(declared) && declared !== kind.type && !kind.aliases.includes(declared)) {
    throw new DomainError('invalid', `attachment '${fileName}' was sent as ${declared} but is a ${label(kind.type)} file`, {
      code: 'attachment.type_mismatch',
      params: { file: fileName, declared, kind: label(kind.type) },
    });
  }
  return { fileName, contentType: kind.type, sizeBytes: content.length, sha256: createHash('sha256').update(content).digest('hex'), content };
}

function label(type: AllowedType): string {
  return type === 'application/pdf' ? 'PDF' : type === 'image/png' ? 'PNG' : 'JPEG';
}

/** Checks every upload of one report, at most three. */
export function checkAttachments(uploads: readonly AttachmentUpload[]): CheckedAttachment[] {
  if (uploads.length > MAX_ATTACHMENTS) {
    throw new DomainError('invalid', `at most ${MAX_ATTACHMENTS} attachments per report, got ${uploads.length}`, {
      code: 'attachment.too_many',
      params: { max: MAX_ATTACHMENTS, count: uploads.length },
    });
  }
  return uploads.map(checkAttachment);
}

/** The Content-Disposition of a download: always `attachment`, the name in ASCII and in UTF-8. */
export function attachmentDisposition(fileName: string): string {
  const ascii = cleanFileName(fileName)
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/[\\"]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(cleanFileName(fileName))}`;
}

export interface AttachmentDownload {
  id: number;
  reportId: number;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  content: Buffer;
}

/**
 * One attachment for whoever asks: operators and the users of the filing member get it; anyone
 * else gets not_found, the same answer as for an id that does not exist (never a hint).
 */
export async function fetchAttachment(db: Db, viewer: Actor, attachmentId: number): Promise<AttachmentDownload> {
  const row = Number.isSafeInteger(attachmentId) ? await findAttachmentWithReport(db, attachmentId) : undefined;
  const allowed = row !== undefined && (viewer.kind === 'operator' || (row.reportedBy !== null && Number(row.reportedBy) === viewer.memberId));
  if (!row || !allowed) throw new DomainError('not_found', `no attachment ${attachmentId}`, { code: 'attachment.not_found', params: { id: attachmentId } });
  return {
    id: Number(row.id),
    reportId: Number(row.reportId),
    fileName: row.fileName,
    contentType: row.contentType,
    sizeBytes: Number(row.sizeBytes),
    sha256: row.sha256,
    content: Buffer.from(row.content),
  };
}
