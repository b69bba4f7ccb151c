import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQueryString } from '../http/query-string.ts';
import { normaliseSearchQuery, rejectSecretsInUrl } from './search-params.ts';
import { generateApiKey } from '../keys/api-key.ts';

const normalise = (qs: string) => normaliseSearchQuery(parseQueryString(qs));

test('D7: q is trimmed and inner white space collapsed; country upper-cased', () => {
  assert.deepEqual(normalise('q=%20%20Demir%20%20%20Çelik%20&country=tr'), { q: 'Demir Çelik', country: 'TR' });
});

test('D7: empty values count as absent', () => {
  assert.deepEqual(normalise('q=abc&type=&country='), { q: 'abc' });
  assert.deepEqual(normalise('q=%20%20'), {});
});

test('D7: a repeated parameter is refused', () => {
  assert.throws(() => normalise('q=abc&q=abd'), { reason: 'duplicate_parameter', message: 'q was given 2 times: give it once' });
  assert.throws(() => normalise('q=abc&type=name&type=tax_id'), { reason: 'duplicate_parameter' });
});

test('D7: control characters are refused', () => {
  for (const bad of ['ab%00c', 'abc%0A', 'a%09bc', 'abc%7F']) {
    assert.throws(() => normalise(`q=${bad}`), { reason: 'invalid_parameter' }, bad);
  }
});

test('D7: bad percent-encoding is refused', () => {
  assert.throws(() => normalise('q=%ff%fe'), { reason: 'malformed_request' });
});

test('D7: a key in the URL is refused whatever its name', () => {
  for (const name of ['api_key', 'apikey', 'key', 'token', 'access_token']) {
    assert.throws(() => rejectSecretsInUrl(parseQueryString(`q=abc&${name}=secret`)), { reason: 'key_in_url' }, name);
  }
  assert.doesNotThrow(() => rejectSecretsInUrl(parseQueryString('q=abc&keyword=x')));
});

test('D7: a key pasted into q is refused too, so it is never echoed', () => {
  const key = generateApiKey();
  assert.throws(() => rejectSecretsInUrl(parseQueryString(`q=${key}`)), { reason: 'key_in_url', message: /parameter q/ });
  assert.throws(() => rejectSecretsInUrl(parseQueryString(`q=abc${key}def`)), { reason: 'key_in_url' });
  // 64 characters that are not a key (wrong checksum) are an ordinary, if odd, query.
  assert.doesNotThrow(() => rejectSecretsInUrl(parseQueryString(`q=${'a'.repeat(64)}`)));
});
