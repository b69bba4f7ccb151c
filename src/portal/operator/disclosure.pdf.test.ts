import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fontkit from 'fontkit';
import { buildDisclosure } from '../../disclosure/disclosure-view.ts';
import { sampleDisclosureInput } from '../../../test/helpers/disclosure-sample.ts';
import { MESSAGES } from '../messages/index.ts';
import { wordDisclosure } from './disclosure-document.ts';
import { renderDisclosurePdf } from './disclosure.pdf.ts';

/** poppler-utils (pdfinfo, pdffonts, pdftotext, pdftoppm): .ci/run installs it. */
function poppler(tool: string, args: string[]): string {
  try {
    return execFileSync(tool, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`${tool} is missing: apt-get install poppler-utils`);
    throw error;
  }
}

const view = buildDisclosure(sampleDisclosureInput());
const dir = mkdtempSync(join(tmpdir(), 'disclosure-test-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

async function pdfOf(locale: 'tr' | 'en'): Promise<string> {
  const path = join(dir, `disclosure-${locale}.pdf`);
  writeFileSync(path, await renderDisclosurePdf(view, locale));
  return path;
}

/** Share of dark pixels in a binary PGM (P5) as pdftoppm -gray writes it. */
function inkShare(pgm: Buffer): number {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'));
  assert.ok(header, 'a PGM image');
  const pixels = pgm.subarray(header[0].length);
  let dark = 0;
  for (const value of pixels) if (value < 128) dark++;
  return dark / pixels.length;
}

test('D34 PDF in Turkish: pages numbered, Noto Sans embedded, the Turkish text extracted exactly as written', async () => {
  const pdf = await pdfOf('tr');
  const pages = Number(/Pages:\s+(\d+)/.exec(poppler('pdfinfo', [pdf]))![1]);
  assert.ok(pages >= 2, `${pages} pages`);
  const fonts = poppler('pdffonts', [pdf]).split('\n').slice(2).filter(Boolean);
  assert.equal(fonts.length, 2);
  for (const line of fonts)
    assert.match(line, /^\w{6}\+NotoSans-(Regular|Bold)\s+CID TrueType\s+Identity-H\s+yes yes yes/, 'embedded, subset, with its Unicode map');
  const text = poppler('pdftotext', ['-enc', 'UTF-8', pdf, '-']).replace(/\s+/g, ' ');
  for (const expected of [
    'Öztürk Işıklı Çağdaş Gıda Sanayi ve Ticaret A.Ş. hakkında tutulan kayıtlar',
    'İzmir 4. İcra Dairesi',
    'Fatura ödenmedi: İzmir şubesine teslim edilen ürünlerin bedeli ağustos ayında çekle ödenecekti.',
    'Ankara Cumhuriyet Başsavcılığı',
    'Borç yapılandırılıyor; ödeme planı 2025 sonunda tamamlanacak.',
    'Şirketi bulan aramalar',
    `Sayfa 1 / ${pages}`,
    `Sayfa ${pages} / ${pages}`,
  ]) {
    assert.ok(text.includes(expected), `missing from the PDF's text: ${expected}`);
  }
});

test('D34 PDF in English, and every page renders with ink on it', async () => {
  const pdf = await pdfOf('en');
  const text = poppler('pdftotext', ['-enc', 'UTF-8', pdf, '-']).replace(/\s+/g, ' ');
  assert.ok(text.includes('Records held on Öztürk Işıklı Çağdaş Gıda Sanayi ve Ticaret A.Ş.'));
  assert.ok(text.includes('Searches that found the company'));
  poppler('pdftoppm', ['-r', '40', '-gray', pdf, join(dir, 'page')]);
  const images = readdirSync(dir).filter((name) => name.startsWith('page') && name.endsWith('.pgm'));
  const pages = Number(/Pages:\s+(\d+)/.exec(poppler('pdfinfo', [pdf]))![1]);
  assert.equal(images.length, pages);
  for (const name of images) {
    const ink = inkShare(readFileSync(join(dir, name)));
    assert.ok(ink > 0.005 && ink < 0.3, `${name}: ${(ink * 100).toFixed(2)} % dark`);
  }
});

test('the embedded font has a glyph for every character the disclosure can print, in both languages', () => {
  const resolve = createRequire(import.meta.url).resolve;
  const files = ['400Regular/NotoSans_400Regular.ttf', '700Bold/NotoSans_700Bold.ttf'];
  const fonts = files.map((f) => fontkit.openSync(resolve(`@expo-google-fonts/noto-sans/${f}`)) as fontkit.Font);
  const vocabulary = Object.entries(MESSAGES)
    .filter(([key]) => /^(disclosure|disputes|reports\.status|search\.type|case)\./.test(key))
    .flatMap(([, texts]) => [texts.en, texts.tr]);
  const documents = (['tr', 'en'] as const).map((locale) => JSON.stringify(wordDisclosure(view, locale)));
  const characters = new Set([...vocabulary.join(''), ...documents.join(''), ...'ÇĞİÖŞÜçğıöşüâîû'].filter((c) => c.trim() !== ''));
  for (const font of fonts) {
    const missing = [...characters].filter((c) => !font.hasGlyphForCodePoint(c.codePointAt(0)!));
    assert.deepEqual(missing, [], `${font.postscriptName} has no glyph for these`);
  }
});
