/**
 * Which addresses a webhook may be sent to (D32, SSRF): public unicast only. Loopback, private
 * (RFC 1918, unique-local fc00::/7), link-local (169.254/16 with the 169.254.169.254 metadata
 * service, fe80::/10), CGNAT 100.64/10, 0.0.0.0/8, multicast, broadcast, documentation and
 * reserved ranges, IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4, Teredo) and the
 * rest of ::/8 are refused. Classification is ipaddr.js's (its special ranges follow the IANA
 * registries); we add only what to do with each. Pure: no DNS here (safe-lookup.ts resolves).
 */
import ipaddr from 'ipaddr.js';

/** The word for an address's range, for the refusal's message. */
const RANGE_WORDS: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private (unique-local) address',
  linkLocal: 'a link-local address (cloud metadata lives there)',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

/** ipaddr.js's range of an IP literal (an IPv4-mapped IPv6 address as its IPv4 one); `::/8` for the rest of ::/8. */
function rawRangeOf(address: string): string {
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    // ::/8 holds ::, ::1, the mapped and the deprecated IPv4-compatible forms: none is a public host.
    else if (v6.parts[0]! < 0x100) return v6.range() in RANGE_WORDS ? v6.range() : '::/8';
  }
  return ip.range();
}

/**
 * Null when `address` (an IP literal) is public; else the name of its range: one of RANGE_WORDS's
 * keys (ipaddr.js's names), `reserved` for the rest, `invalid` for what is no IP address. The
 * portal words a refusal from it in the reader's language.
 */
export function nonPublicRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  const range = rawRangeOf(address);
  if (range === 'unicast') return null;
  return range in RANGE_WORDS ? range : 'reserved';
}

/** Null when `address` (an IP literal) is public; else why not, in words. */
export function nonPublicReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const range = rawRangeOf(address);
  if (range === 'unicast') return null;
  return RANGE_WORDS[range] ?? `a reserved address (${range})`;
}

export function isPublicAddress(address: string): boolean {
  return nonPublicReason(address) === null;
}
