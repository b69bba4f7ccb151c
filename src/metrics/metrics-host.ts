/**
 * D36: where the metrics port may listen. Loopback by default; a private address (RFC 1918,
 * IPv6 unique-local) is allowed too, for a Prometheus on the same private network; anything
 * else (a public address, or every address: 0.0.0.0, ::) only with `--metrics-public`. The figures
 * hold no key or personal data, but they tell an outsider the traffic, the routes and the load:
 * nothing to hand to the internet by accident.
 */
import net from 'node:net';
import { isLoopback } from '../lib/loopback.ts';

const PRIVATE = new net.BlockList();
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');

/** Whether `host` is loopback or a private address (not a name, not a wildcard). */
export function isPrivateOrLoopback(host: string): boolean {
  if (isLoopback(host)) return true;
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const family = net.isIP(bare);
  return family !== 0 && PRIVATE.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** Null when `host` may serve the metrics, else the refusal to print. */
export function metricsHostProblem(host: string, allowPublic: boolean): string | null {
  if (allowPublic || isPrivateOrLoopback(host)) return null;
  return (
    `refusing to serve /metrics on ${host}: it is not a loopback or private address, so anyone who reaches it would see ` +
    "the service's traffic and load. Listen on 127.0.0.1 (the default) or a private address, or add --metrics-public " +
    'if a firewall keeps it private'
  );
}
