import { test } from 'node:test';
import assert from 'node:assert/strict';
import { landingPageOr } from './sign-in-next.ts';

test('issue 27 finding 10: next is a read-only page, exactly, or the fallback', () => {
  for (const page of ['/portal/', '/portal/search', '/portal/reports/new', '/portal/operator/', '/portal/operator/log', '/portal/operator/companies/12']) {
    assert.equal(landingPageOr(page, 'home'), page);
  }
  for (const other of [
    '/portal/search?q=Anadolu',
    '/portal/search?',
    '/portal/usage.csv',
    '/portal/reports/3/withdraw',
    '/portal/sign-out',
    '/portal/reports/attachments/4',
    '/portal/operator/companies?tax_id=1',
    '/portal/operator/companies/0',
    '//evil.example/portal/',
    'https://evil.example/portal/',
    '/portal/../api/v1/search',
    '',
  ]) {
    assert.equal(landingPageOr(other, 'home'), 'home', other);
  }
});
