import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hashPassword, verifyDummyPassword, verifyPassword } from './password.ts';
import { checkNewPassword, weakShapeOf } from './password-rules.ts';
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

/** The problem code a password is refused with, or null when it is accepted. */
async function refusalOf(password: string): Promise<string | null> {
  try {
    await checkNewPassword(password);
    return null;
  } catch (error) {
    assert.ok(error instanceof DomainError);
    return error.problems[0]!.code;
  }
}

test('rules: at least 12 characters (counted as characters, not bytes), at most 256', async () => {
  assert.equal(await refusalOf('short'), 'user.password_too_short');
  assert.equal(await refusalOf('ğüşiöçğüşiö'), 'user.password_too_short');
  assert.equal(await refusalOf('ğüşiöç ğüşiöç'), null);
  assert.equal(await refusalOf('xy'.repeat(129)), 'user.password_too_long');
});

test('rules: white space only, one character repeated, or a breached password (any case) are refused', async () => {
  assert.equal(await refusalOf(' '.repeat(12)), 'user.password_blank');
  assert.equal(await refusalOf('\t\n \u00a0\u2003'.repeat(3)), 'user.password_blank');
  assert.equal(await refusalOf('a'.repeat(12)), 'user.password_repeated');
  assert.equal(await refusalOf('😀'.repeat(12)), 'user.password_repeated');
  for (const breached of ['password1234', 'PASSWORD1234', 'qwertyuiop12', '123456789012']) {
    assert.equal(await refusalOf(breached), 'user.password_breached', breached);
  }
  assert.equal(await refusalOf('correct horse battery staple'), null);
  assert.equal(weakShapeOf('ab'.repeat(6)), null, 'two characters alternating are left to the list');
});
