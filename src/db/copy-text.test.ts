import assert from 'node:assert/strict';
import { test } from 'node:test';
import { copyTextPieces } from './bulk-writer.ts';

type Row = [string | number | null, string | null];
const columns = ['a', 'b'];
const field = (row: Row, column: string) => (column === 'a' ? row[0] : row[1]);
const expectedText = (rows: Row[]) =>
  rows
    .map(
      (r) =>
        r.map((v) => (v === null ? '\\N' : String(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r'))).join('\t') +
        '\n',
    )
    .join('');

test('COPY pieces: together exactly the text of every row, each piece ending at a line', () => {
  const rows: Row[] = Array.from({ length: 500 }, (_, i) => [
    i,
    i % 7 === 0 ? null : `Şirket ${i} ığüşöç 😀 tab\there back\\slash\nline\r${'Ç'.repeat(i % 50)}`,
  ]);
  const pieces = [...copyTextPieces(rows, columns, field, 256)];
  assert.ok(pieces.length > 20, `several pieces (${pieces.length})`);
  for (const p of pieces) assert.equal(p.at(-1), 0x0a, 'a piece ends with a whole line');
  assert.equal(Buffer.concat(pieces).toString('utf8'), expectedText(rows));
});

test('COPY pieces: a line longer than a piece goes out alone and whole, between shorter ones', () => {
  const long = '😀Ğ'.repeat(400);
  const rows: Row[] = [
    [1, 'kısa'],
    [2, long],
    [3, 'kısa'],
  ];
  const pieces = [...copyTextPieces(rows, columns, field, 64)];
  assert.deepEqual(
    pieces.map((p) => p.toString('utf8')),
    ['1\tkısa\n', `2\t${long}\n`, '3\tkısa\n'],
  );
});

test('COPY pieces: no rows, no piece', () => {
  assert.deepEqual([...copyTextPieces([], columns, field)], []);
});
