import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPublicAddress, nonPublicRange, nonPublicReason } from './address-policy.ts';

test('public unicast addresses are allowed', () => {
  for (const address of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e', '::ffff:8.8.8.8']) {
    assert.equal(nonPublicReason(address), null, address);
  }
});

test('every non-public range is refused, IPv4-mapped IPv6 forms too', () => {
  const refused: Array<[string, RegExp]> = [
    ['127.0.0.1', /loopback/],
    ['127.255.255.254', /loopback/],
    ['::1', /loopback/],
    ['10.1.2.3', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['fc00::1', /unique-local/],
    ['fd12:3456::1', /unique-local/],
    ['169.254.169.254', /link-local.*metadata/],
    ['169.254.0.1', /link-local/],
    ['fe80::1', /link-local/],
    ['100.64.0.1', /carrier-grade/],
    ['100.127.255.255', /carrier-grade/],
    ['0.0.0.0', /unspecified/],
    ['0.1.2.3', /unspecified/],
    ['::', /unspecified/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['ff02::1', /multicast/],
    ['255.255.255.255', /broadcast/],
    ['::ffff:127.0.0.1', /loopback/],
    ['::ffff:10.0.0.1', /private/],
    ['::ffff:169.254.169.254', /link-local/],
    ['::7f00:1', /reserved/],
    ['64:ff9b::7f00:1', /reserved/],
    ['2002:7f00:1::', /reserved/],
    ['2001:db8::1', /reserved/],
    ['192.0.2.1', /reserved/],
    ['240.0.0.1', /reserved/],
  ];
  for (const [address, why] of refused) {
    assert.equal(isPublicAddress(address), false, address);
    assert.match(nonPublicReason(address) ?? '', why, address);
  }
});

test('what is not an address is not public', () => {
  assert.equal(isPublicAddress('example.com'), false);
  assert.equal(isPublicAddress(''), false);
});

test("each refused address's range by name, for the portal's words", () => {
  const ranges: Array<[string, string | null]> = [
    ['8.8.8.8', null],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::7f00:1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['example.com', 'invalid'],
  ];
  for (const [address, range] of ranges) assert.equal(nonPublicRange(address), range, address);
});
