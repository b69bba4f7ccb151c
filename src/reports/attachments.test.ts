import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { attachmentDisposition, checkAttachment, checkAttachments, cleanFileName, MAX_ATTACHMENT_BYTES } from './attachments.ts';

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(100, 0x20)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(50)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(50)]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]);
const HTML = Buffer.from('\uFEFF  <!DOCTYPE html><html><script>alert(1)</script></html>');

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

test('D29: PDF, PNG and JPEG are told by their content and kept with their SHA-256', () => {
  const pdf = checkAttachment({ fileName: 'invoice.PDF', declaredType: 'application/pdf', content: PDF });
  assert.equal(pdf.contentType, 'application/pdf');
  assert.equal(pdf.sha256, createHash('sha256').update(PDF).digest('hex'));
  assert.equal(pdf.sizeBytes, PDF.length);
  assert.equal(checkAttachment({ fileName: 'scan.png', declaredType: 'image/png', content: PNG }).contentType, 'image/png');
  assert.equal(checkAttachment({ fileName: 'photo.jpeg', declaredType: 'image/jpeg', content: JPEG }).contentType, 'image/jpeg');
  assert.equal(checkAttachment({ fileName: 'photo.jpg', declaredType: '', content: JPEG }).contentType, 'image/jpeg', 'no declared type: the content decides');
});

test('D29: a renamed .exe is refused, whatever its name and declared type', () => {
  for (const [fileName, declaredType] of [
    ['invoice.pdf', 'application/pdf'],
    ['photo.jpg', 'image/jpeg'],
    ['setup.exe', 'application/octet-stream'],
  ]) {
    assert.match(
      refusal(() => checkAttachment({ fileName: fileName!, declaredType: declaredType!, content: EXE })),
      /Windows program.*attach a PDF, PNG or JPEG/,
    );
  }
});

test('D29: an HTML file is refused, even named .pdf', () => {
  assert.match(
    refusal(() => checkAttachment({ fileName: 'page.html', declaredType: 'text/html', content: HTML })),
    /web page/,
  );
  assert.match(
    refusal(() => checkAttachment({ fileName: 'x.pdf', declaredType: 'application/pdf', content: HTML })),
    /web page/,
  );
});

test('D29: the declared type and the extension must agree with the content', () => {
  assert.match(
    refusal(() => checkAttachment({ fileName: 'scan.pdf', declaredType: 'application/pdf', content: PNG })),
    /PNG file but its name does not end in \.png/,
  );
  assert.match(
    refusal(() => checkAttachment({ fileName: 'scan.png', declaredType: 'application/pdf', content: PNG })),
    /sent as application\/pdf but is a PNG/,
  );
  assert.match(
    refusal(() => checkAttachment({ fileName: 'noextension', declaredType: 'image/png', content: PNG })),
    /does not end in \.png/,
  );
});

test('D29: at most 5 MB each, not empty, at most 3', () => {
  const big = Buffer.concat([PDF, Buffer.alloc(MAX_ATTACHMENT_BYTES - PDF.length + 1)]);
  assert.match(
    refusal(() => checkAttachment({ fileName: 'big.pdf', declaredType: 'application/pdf', content: big })),
    /^attachment 'big\.pdf' is larger than 5 MB$/,
  );
  const exact = Buffer.concat([PDF, Buffer.alloc(MAX_ATTACHMENT_BYTES - PDF.length)]);
  assert.equal(checkAttachment({ fileName: 'max.pdf', declaredType: 'application/pdf', content: exact }).sizeBytes, MAX_ATTACHMENT_BYTES);
  assert.match(
    refusal(() => checkAttachment({ fileName: 'e.pdf', declaredType: '', content: Buffer.alloc(0) })),
    /empty/,
  );
  const one = { fileName: 'a.pdf', declaredType: 'application/pdf', content: PDF };
  assert.equal(checkAttachments([one, one, one]).length, 3);
  assert.match(
    refusal(() => checkAttachments([one, one, one, one])),
    /at most 3 attachments/,
  );
});

test('file names lose directories and control characters; downloads are attachments', () => {
  assert.equal(cleanFileName('C:\\Users\\x\\fatura.pdf'), 'fatura.pdf');
  assert.equal(cleanFileName('../../etc/"pa\u0000ss".pdf'), 'pass.pdf');
  assert.equal(cleanFileName(''), 'attachment');
  assert.equal(attachmentDisposition('fatura şubat.pdf'), `attachment; filename="fatura _ubat.pdf"; filename*=UTF-8''fatura%20%C5%9Fubat.pdf`);
});
