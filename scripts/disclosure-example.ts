// Writes docs/portal/disclosure-example.png: the first page of the sample company's disclosure
// (D34) in Turkish, rendered as the console's PDF download is, then turned into a picture by
// pdftoppm (Debian's poppler-utils). `node --import tsx scripts/disclosure-example.ts [--out DIR]`
// also keeps the PDFs (tr, en) and every page as PNG in DIR, to look at.
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { buildDisclosure } from '../src/disclosure/disclosure-view.ts';
import { renderDisclosurePdf } from '../src/portal/operator/disclosure.pdf.ts';
import { sampleDisclosureInput } from '../test/helpers/disclosure-sample.ts';

const outIndex = process.argv.indexOf('--out');
const dir = outIndex > 0 ? process.argv[outIndex + 1]! : mkdtempSync(join(tmpdir(), 'disclosure-'));
const view = buildDisclosure(sampleDisclosureInput());
for (const locale of ['tr', 'en'] as const) {
  const pdf = join(dir, `disclosure-${locale}.pdf`);
  writeFileSync(pdf, await renderDisclosurePdf(view, locale));
  execFileSync('pdftoppm', ['-r', '80', '-png', pdf, join(dir, `disclosure-${locale}`)]);
}
const example = new URL('../docs/portal/disclosure-example.png', import.meta.url);
const firstPage = join(dir, readFirstPageName(dir));
renameSync(firstPage, example);
console.log(`wrote ${example.pathname} (PDFs and pages in ${dir})`);

/** pdftoppm numbers pages with as many digits as the last page needs: -1 or -01. */
function readFirstPageName(folder: string): string {
  for (const name of ['disclosure-tr-1.png', 'disclosure-tr-01.png']) {
    try {
      readFileSync(join(folder, name));
      return name;
    } catch {
      // the other width
    }
  }
  throw new Error(`pdftoppm wrote no first page in ${folder}`);
}
