/**
 * The disclosure (D34) as a PDF download: the same worded document as the console page
 * (disclosure-document.ts), laid out on A4 with pdfkit. Pure but for reading the font files: no
 * queries, nothing decided here.
 *
 * Why pdfkit: actively kept, lays text out itself (wrapping, page breaks, tables) and embeds a
 * TrueType font as a subset with its ToUnicode map, so Turkish letters render and can be copied or
 * searched. pdf-lib draws text only where told (no wrapping, no pages; its last release is from
 * 2021); pdfmake is a layer over an older pdfkit with its own document format and font registry.
 * The standard PDF fonts have no ş ğ ı İ (WinAnsi), so Noto Sans is embedded: the TrueType files of
 * the `@expo-google-fonts/noto-sans` package (SIL Open Font License 1.1, which allows embedding),
 * installed by `npm ci` like any dependency. pdfkit is loaded on first use (scripts/bundle.mjs
 * leaves it outside the bundle: it finds its own data files by path).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { DisclosureView } from '../../disclosure/disclosure-view.ts';
import { t } from '../messages/index.ts';
import type { Locale } from '../portal-context.ts';
import { wordDisclosure, type WordedDisclosure, type WordedFact, type WordedReport } from './disclosure-document.ts';

const resolveFromHere = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | null = null;

/** Noto Sans regular and bold, read once. */
function notoSans(): { regular: Buffer; bold: Buffer } {
  fonts ??= {
    regular: readFileSync(resolveFromHere.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf')),
    bold: readFileSync(resolveFromHere.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf')),
  };
  return fonts;
}

const MARGIN = 56;
const LABEL_WIDTH = 150;
const GREY = '#4a4a4a';
const LINE = '#8a8a8a';

type Doc = PDFKit.PDFDocument;

/** The PDF of the disclosure in `locale`. */
export async function renderDisclosurePdf(view: DisclosureView, locale: Locale): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = wordDisclosure(view, locale);
  const { regular, bold } = notoSans();
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    // The first font (Helvetica when none is named, which has no ş ğ ı İ): pdfkit's font() takes the
    // file's bytes as well as a path, though @types/pdfkit lists a path only.
    font: regular as unknown as string,
    lang: locale === 'tr' ? 'tr-TR' : 'en-GB',
    displayTitle: true,
    info: { Title: doc.title, Author: doc.service, Creator: doc.service },
  });
  pdf.registerFont('regular', regular);
  pdf.registerFont('bold', bold);
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    pdf.on('end', resolve);
    pdf.on('error', reject);
  });
  layOut(pdf, doc);
  footers(pdf, doc);
  pdf.end();
  await ended;
  return Buffer.concat(chunks);
}

function width(pdf: Doc): number {
  return pdf.page.width - pdf.page.margins.left - pdf.page.margins.right;
}

/** A new page unless `needed` points fit above the bottom margin. */
function keepRoom(pdf: Doc, needed: number): void {
  if (pdf.y + needed > pdf.page.height - pdf.page.margins.bottom) pdf.addPage();
}

function heading(pdf: Doc, text: string, size: number): void {
  keepRoom(pdf, size * 5);
  pdf
    .moveDown(0.6)
    .font('bold')
    .fontSize(size)
    .fillColor('black')
    .text(text, MARGIN, pdf.y, { width: width(pdf) });
  pdf.moveDown(0.2);
}

function paragraph(pdf: Doc, text: string, options: { size?: number; color?: string; font?: 'regular' | 'bold' } = {}): void {
  pdf
    .font(options.font ?? 'regular')
    .fontSize(options.size ?? 10)
    .fillColor(options.color ?? 'black')
    .text(text, MARGIN, pdf.y, { width: width(pdf) });
}

/** Label and value side by side, the pair never split across pages. */
function facts(pdf: Doc, list: readonly WordedFact[]): void {
  pdf.fontSize(9.5).fillColor('black');
  const valueWidth = width(pdf) - LABEL_WIDTH;
  for (const { label, value } of list) {
    const height = Math.max(
      pdf.font('bold').heightOfString(label, { width: LABEL_WIDTH - 8 }),
      pdf.font('regular').heightOfString(value, { width: valueWidth }),
    );
    keepRoom(pdf, height + 3);
    const top = pdf.y;
    pdf.font('bold').text(label, MARGIN, top, { width: LABEL_WIDTH - 8 });
    pdf.font('regular').text(value, MARGIN + LABEL_WIDTH, top, { width: valueWidth });
    pdf.y = top + height + 3;
  }
  pdf.x = MARGIN;
}

function table(pdf: Doc, columns: readonly string[], rows: readonly (readonly string[])[], widths: (string | number)[]): void {
  keepRoom(pdf, 60);
  pdf.font('regular').fontSize(8.5).fillColor('black');
  pdf.table({
    position: { x: MARGIN, y: pdf.y },
    maxWidth: width(pdf),
    columnStyles: widths,
    defaultStyle: { border: 0.5, borderColor: LINE, padding: [3, 4, 3, 4] },
    data: [columns.map((text) => ({ text, font: { src: 'bold' }, type: 'TH' as const })), ...rows.map((row) => [...row])],
  });
  pdf.x = MARGIN;
}

function report(pdf: Doc, r: WordedReport): void {
  heading(pdf, r.heading, 13);
  facts(pdf, r.facts);
  if (r.description) {
    keepRoom(pdf, 40);
    pdf.moveDown(0.3);
    paragraph(pdf, r.description.label, { size: 9.5, font: 'bold' });
    paragraph(pdf, r.description.value, { size: 9.5 });
  }
  if (r.history.rows.length > 0) {
    pdf.moveDown(0.4);
    paragraph(pdf, r.history.heading, { size: 9.5, font: 'bold' });
    table(pdf, r.history.columns, r.history.rows, [88, 150, 80, '*']);
  }
  for (const dispute of r.disputes) {
    heading(pdf, dispute.heading, 10.5);
    facts(pdf, dispute.facts);
  }
}

function layOut(pdf: Doc, doc: WordedDisclosure): void {
  paragraph(pdf, doc.service, { size: 9, color: GREY });
  pdf.moveDown(0.2);
  paragraph(pdf, doc.title, { size: 18, font: 'bold' });
  paragraph(pdf, doc.printed, { size: 9, color: GREY });
  pdf.moveDown(0.6);
  paragraph(pdf, doc.intro, { size: 10 });
  pdf.moveDown(0.6);
  facts(pdf, doc.company);
  pdf.moveDown(0.4);
  paragraph(pdf, doc.summary, { size: 10, font: 'bold' });
  if (doc.none) paragraph(pdf, doc.none);
  for (const r of doc.reports) report(pdf, r);
  heading(pdf, doc.lookups.heading, 13);
  paragraph(pdf, doc.lookups.note, { size: 9, color: GREY });
  pdf.moveDown(0.3);
  table(pdf, doc.lookups.columns, [...doc.lookups.rows, doc.lookups.total], [200, 80]);
}

/** "Page n of m" and the service's name at the foot of every page. */
function footers(pdf: Doc, doc: WordedDisclosure): void {
  const { start, count } = pdf.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    pdf.switchToPage(i);
    const bottom = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0; // writing below the margin must not start a new page
    const y = pdf.page.height - MARGIN / 2 - 6;
    const text = `${doc.service} · ${doc.printed} · ${t(doc.locale, 'disclosure.page', { page: i + 1, pages: count })}`;
    pdf
      .font('regular')
      .fontSize(8)
      .fillColor(GREY)
      .text(text, MARGIN, y, { width: width(pdf), align: 'center', lineBreak: false });
    pdf.page.margins.bottom = bottom;
  }
}
