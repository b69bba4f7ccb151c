import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasBidiControls, hasForbiddenCharacters, withoutBidiControls } from './bidi-controls.ts';
import { checkEmail, checkName } from '../users/users.service.ts';
import { cleanFileName } from '../reports/attachments.ts';
import { problemText } from '../portal/problem-text.ts';

const RLO = '\u202E';

test('the embedding, override and isolate controls are found and removed; other text is left alone', () => {
  for (const c of ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069']) {
    assert.ok(hasBidiControls(`a${c}b`), c.codePointAt(0)!.toString(16));
  }
  assert.equal(withoutBidiControls(`invoice${RLO}fdp.exe${RLO}`), 'invoicefdp.exe');
  assert.ok(!hasBidiControls('Özdemiroğlu İplik A.Ş. — “fatura” 5,1 MB'));
});

test('the one rule of filed text: no bidi control, no control character; line breaks and tabs only in text with lines', () => {
  for (const c of [RLO, '\u2066', '\u0000', '\u0007', '\u001b', '\u007f', '\u0085']) {
    assert.ok(hasForbiddenCharacters(`a${c}b`), c.codePointAt(0)!.toString(16));
    assert.ok(hasForbiddenCharacters(`a${c}b`, { lines: true }), c.codePointAt(0)!.toString(16));
  }
  assert.ok(hasForbiddenCharacters('two\nlines'));
  assert.ok(!hasForbiddenCharacters('two\r\nlines,\ta tab', { lines: true }));
  assert.ok(!hasForbiddenCharacters('Özdemiroğlu İplik A.Ş. — “fatura” 5,1 MB'));
});

test('names and emails refuse them: a stored one would reverse what an operator reads', () => {
  assert.throws(() => checkEmail(`bidi${RLO}moc.live@x.com`), /is not an email address/);
  assert.equal(checkEmail(' ayse@example.com '), 'ayse@example.com');
  assert.throws(() => checkName(`Ayşe ${RLO}zılmaY`), /the name must be/);
  assert.equal(checkName('Ayşe  Yılmaz'), 'Ayşe Yılmaz');
});

test('a file name loses them, and so does a typed value echoed in a refusal', () => {
  assert.equal(cleanFileName(`invoice${RLO}fdp.exe`), 'invoicefdp.exe');
  const echoed = problemText('tr', { code: 'attachment.empty', params: { file: `invoice${RLO}fdp.exe` } }, 'x');
  assert.ok(!hasBidiControls(echoed), echoed);
  assert.match(echoed, /invoicefdp\.exe/);
});
