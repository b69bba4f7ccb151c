/** Small files whose first bytes are what attachments are told by (D29). */
export const PDF_FILE = Buffer.concat([Buffer.from('%PDF-1.7\n% test invoice\n'), Buffer.alloc(64, 0x20)]);
export const PNG_FILE = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
export const JPEG_FILE = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);
export const EXE_FILE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(128, 0x90)]);
export const HTML_FILE = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');

/** A page's HTML without the white space around tags (the templates are formatted by prettier). */
export function squash(body: string): string {
  return body.replace(/\s*(<[^>]+>)\s*/g, '$1').replace(/\s+/g, ' ');
}
