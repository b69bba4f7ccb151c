import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidEncoding, parseQueryString } from './query-string.ts';

test('decodes percent-encoding and plus as space', () => {
  assert.deepEqual({ ...parseQueryString('q=%C4%B0stanbul+Demir&type=name') }, { q: 'İstanbul Demir', type: 'name' });
});

test('a repeated parameter becomes an array', () => {
  assert.deepEqual({ ...parseQueryString('q=abc&q=def') }, { q: ['abc', 'def'] });
});

test('invalid percent-encoding is marked, never thrown', () => {
  for (const bad of ['%ff', '%c3%28', '%', '%zz', '%ed%a0%80']) {
    const parsed = parseQueryString(`q=${bad}`);
    assert.ok(parsed.q instanceof InvalidEncoding, bad);
  }
});

test('names such as __proto__ are plain keys', () => {
  const parsed = parseQueryString('__proto__=x&constructor=y');
  assert.equal(parsed['__proto__'], 'x');
  assert.equal(Object.getPrototypeOf(parsed), null);
});

test('plain names and values are taken as they are; an escaped plus stays a plus', () => {
  assert.deepEqual({ ...parseQueryString('type=tax_id&country=TR&q=0680123456') }, { type: 'tax_id', country: 'TR', q: '0680123456' });
  assert.deepEqual({ ...parseQueryString('q=a%2Bb+c&q%5B%5D=x') }, { q: 'a+b c', 'q[]': 'x' });
});
