import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formField, portalPathOr } from './forms.ts';

test('return paths stay inside the portal', () => {
  for (const ok of ['/portal/', '/portal/usage', '/portal/accept?token=abc_-123', '/portal/sign-in?next=%2Fportal%2Fusage&expired=1']) {
    assert.equal(portalPathOr(ok, 'F'), ok);
  }
  for (const bad of [
    '',
    '/',
    '//evil.example/portal/',
    'https://evil.example/portal/',
    '/portal//evil.example',
    '/portal/\\evil',
    '/portalx/',
    '/api/v1/search',
    '/portal/a?b=<x>',
    'javascript:alert(1)',
  ]) {
    assert.equal(portalPathOr(bad, 'F'), 'F', bad);
  }
});

test('a form field is one string; missing or repeated reads as empty', () => {
  assert.equal(formField({ a: 'x' }, 'a'), 'x');
  assert.equal(formField({ a: ['x', 'y'] }, 'a'), '');
  assert.equal(formField({}, 'a'), '');
  assert.equal(formField(null, 'a'), '');
  assert.equal(formField({ a: 'abcdef' }, 'a', 3), 'abc');
});
