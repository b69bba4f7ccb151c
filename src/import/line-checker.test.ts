/** The worker thread answers exactly what the inline check answers, in line order. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCountryCatalogue } from '../countries/catalogue.ts';
import { vkn } from '../demo/valid-ids.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkFileInWorker, checkLinesInline, checkLinesInWorker } from './line-checker.ts';
import { decodeCheckedLines, encodeCheckedLines } from './checked-lines-wire.ts';

const countries = buildCountryCatalogue(['TR', 'DE']);

function lines(): string[] {
  return Array.from({ length: 2300 }, (_, i) => {
    if (i % 500 === 7) return '{broken json';
    if (i % 700 === 3) return '';
    const report = { ref: `LC-${i}`, type: 'enforcement_plain', status: 'approved', filed_at: '2026-01-02 10:00:00', description: 'x' };
    // FR is switched off in this catalogue: the worker must use the caller's countries.
    const country = i % 900 === 5 ? 'FR' : 'TR';
    return JSON.stringify({
      company_name: `Firma ${i} A.Ş.`,
      tax_id: vkn(String(300_000_000 + i)),
      country,
      city: 'Ankara',
      reports: [report, ...(i % 400 === 1 ? [report] : [])],
    });
  });
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

test('worker and inline checks agree line by line', async () => {
  const input = lines();
  const inline = await collect(checkLinesInline(input, countries));
  const worker = await collect(checkLinesInWorker(input, countries));
  assert.equal(worker.length, input.length);
  assert.deepEqual(worker, inline);
  assert.deepEqual(
    worker.map((l) => l.lineNo),
    input.map((_, i) => i + 1),
  );
  // The input does hold every kind of line.
  assert.ok(worker.some((l) => l.blank));
  assert.ok(worker.some((l) => l.problems.some((p) => p.startsWith('not valid JSON'))));
  assert.ok(worker.some((l) => l.problems.some((p) => p.includes('appears twice'))));
  assert.ok(worker.some((l) => l.problems.some((p) => p.includes('"FR"'))));
  assert.ok(worker.filter((l) => l.company !== null).length > 2000);
});

test('stopping early ends the worker thread', async () => {
  for await (const line of checkLinesInWorker(lines(), countries)) if (line.lineNo === 1500) break;
  // Reaching here without hanging is the test: the generator's finally terminated the thread.
});

test('a file read on the worker thread gives the lines the inline check gives, CRLF endings and a last line without one included', async () => {
  const input = lines();
  const dir = mkdtempSync(join(tmpdir(), 'risklookup-checker-'));
  const path = join(dir, 'lines.jsonl');
  // Windows line endings on every third line; no newline after the last line.
  writeFileSync(path, input.map((l, i) => l + (i === input.length - 1 ? '' : i % 3 === 0 ? '\r\n' : '\n')).join(''));
  try {
    const bytes: number[] = [];
    const fromFile = await collect(checkFileInWorker(path, countries, (b) => bytes.push(b)));
    assert.deepEqual(fromFile, await collect(checkLinesInline(input, countries)));
    assert.equal(bytes.length, 3, 'one report a chunk of 1,000 lines');
    assert.equal(bytes[bytes.length - 1], Buffer.byteLength(input.join('\n')) + Math.ceil((input.length - 1) / 3));
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('stopping early ends the worker thread that reads a file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'risklookup-checker-'));
  const path = join(dir, 'lines.jsonl');
  writeFileSync(path, lines().join('\n'));
  try {
    for await (const line of checkFileInWorker(path, countries)) if (line.lineNo === 1500) break;
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('checked lines cross the threads as a flat array and come back as they were, every field of a report set', () => {
  const bill = {
    ref: 'LC-BILL',
    type: 'enforcement_bill',
    status: 'pending',
    filed_at: '2025-11-07 08:49:05',
    description: 'enforcement bill kaydı',
    amount: 1023799.09,
    currency: 'TRY',
    case: { enforcement_office: 'Eskişehir 25. İcra Dairesi', file_number: '2025/54342', date: '2025-11-07' },
  };
  const input = [
    ...lines().slice(0, 1000),
    JSON.stringify({ company_name: 'Fatura Sanayi A.Ş.', tax_id: vkn('399999999'), country: 'TR', city: 'İzmir', reports: [bill] }),
  ];
  const checked = checkLinesInline(input, countries);
  return collect(checked).then((lines) => {
    const billLine = lines[lines.length - 1]!;
    assert.equal(billLine.company?.reports[0]?.amountMinor, 102379909);
    assert.ok(billLine.company.reports[0].caseJson !== null && billLine.company.reports[0].currency === 'TRY');
    const back = decodeCheckedLines(structuredClone(encodeCheckedLines(lines)));
    assert.deepEqual(back, lines);
    // Same keys in the same order: the objects the writer gets have one shape, as the checker's.
    assert.deepEqual(Object.keys(back[back.length - 1]!.company!.reports[0]!), Object.keys(billLine.company.reports[0]));
    assert.deepEqual(Object.keys(back[back.length - 1]!.company!), Object.keys(billLine.company));
  });
});
