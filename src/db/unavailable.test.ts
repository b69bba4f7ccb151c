import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDatabaseUnavailable } from './unavailable.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

test('connection, shutdown, timeout and lock errors are "unavailable"', () => {
  for (const e of [
    withCode('ECONNREFUSED'),
    withCode('57P01'),
    withCode('57014'),
    withCode('08006'),
    withCode('53300'),
    withCode('SQLITE_BUSY'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    Object.assign(new Error('wrapped'), { cause: withCode('ECONNRESET') }),
  ]) {
    assert.equal(isDatabaseUnavailable(e), true, e.message);
  }
});

test('bugs and constraint violations are not', () => {
  for (const e of [withCode('42P01', 'relation "reports" does not exist'), withCode('23505'), new TypeError('x is undefined'), null, 'text']) {
    assert.equal(isDatabaseUnavailable(e), false, String(e));
  }
});
