import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPasswordRules, hashPassword, verifyDummyPassword, verifyPassword } from './password.ts';
import { DomainError } from '../lib/errors.ts';

test('argon2id at the OWASP settings, salted: two hashes of one password differ', async () => {
  const a = await hashPassword('correct horse battery staple');
  const b = await hashPassword('correct horse battery staple');
  assert.match(a, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  assert.notEqual(a, b);
  assert.ok(!a.includes('correct horse'));
});

test('verification: the right password only; a broken hash is false, not an exception', async () => {
  const h = await hashPassword('correct horse battery staple');
  assert.equal(await verifyPassword(h, 'correct horse battery staple'), true);
  assert.equal(await verifyPassword(h, 'Correct horse battery staple'), false);
  assert.equal(await verifyPassword('not a hash', 'x'), false);
  assert.equal(await verifyDummyPassword('anything'), false);
});

test('rules: at least 12 characters (counted as characters, not bytes), at most 256', () => {
  assert.throws(() => checkPasswordRules('short'), DomainError);
  assert.throws(() => checkPasswordRules('ğğğğğğğğğğğ'), DomainError);
  checkPasswordRules('ğğğğğğğğğğğğ');
  assert.throws(() => checkPasswordRules('x'.repeat(257)), DomainError);
});
