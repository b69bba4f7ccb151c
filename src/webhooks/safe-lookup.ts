/**
 * Name resolution for webhooks, with D32's address rule applied at registration AND at
 * connection time: the same check runs inside the `lookup` the connection uses, so a DNS answer
 * that changes between the two (DNS rebinding) is caught where it matters, and the connection
 * goes to an address that was checked. Every address of a name is checked: one private address
 * among public ones refuses the name.
 */
import { promises as dns, type LookupAddress } from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { nonPublicRange } from './address-policy.ts';

/** Every address of a host name. Tests give one they control. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The one answer for a host that may not receive webhooks, whether it resolves to a loopback,
 * private, link-local or reserved address or to none at all: it names no address and no range,
 * and reads the same in both cases, so registering names one by one (or pointing a public name
 * at an internal one) maps nothing of the server's own network. It still says what to fix.
 */
export function addressRefusedMessage(host: string): string {
  return `${host} does not resolve to a public address (it resolves to a private or reserved address, or to none): webhooks only go to public addresses; give a host name that resolves to a public internet address`;
}

/** A refused or unresolvable address. The message is addressRefusedMessage's; the address and its range are for the server's log only. */
export class AddressRefusedError extends Error {
  override readonly name = 'AddressRefusedError';
  readonly code = 'EADDRREFUSED';
  constructor(
    readonly host: string,
    /** The refused address; null when the host has none (it could not be resolved). Never shown to a member. */
    readonly address: string | null,
    /** Its range's name (address-policy.ts, nonPublicRange); null with no address. */
    readonly range: string | null = null,
  ) {
    super(addressRefusedMessage(host));
  }
}

export interface AddressRule {
  readonly resolve: Resolver;
  /** Operator setting (tests, local receivers only): private addresses allowed. Default off. */
  readonly allowPrivate: boolean;
}

/** The addresses of `hostname` (a name or an IP literal, IPv6 in brackets or not), all allowed; else AddressRefusedError. */
export async function allowedAddresses(hostname: string, rule: AddressRule): Promise<string[]> {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  let addresses: string[];
  if (net.isIP(bare)) addresses = [bare];
  else {
    try {
      addresses = await rule.resolve(bare);
    } catch {
      // Not found, or the resolver failed: the same answer as a private address (no oracle).
      throw new AddressRefusedError(bare, null);
    }
  }
  if (addresses.length === 0) throw new AddressRefusedError(bare, null);
  if (!rule.allowPrivate) {
    for (const address of addresses) {
      const range = nonPublicRange(address);
      if (range !== null) throw new AddressRefusedError(bare, address, range);
    }
  }
  return addresses;
}

/** A `lookup` for `https.request`: resolves with the rule's resolver and refuses as `allowedAddresses` does. */
export function guardedLookup(rule: AddressRule): LookupFunction {
  return (hostname, options, callback) => {
    allowedAddresses(hostname, rule).then(
      (addresses) => {
        const all: LookupAddress[] = addresses.map((address) => ({ address, family: net.isIP(address) }));
        const wanted = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        if (wanted.length === 0) return callback(new AddressRefusedError(hostname, null), '', 0);
        if (options.all) callback(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
