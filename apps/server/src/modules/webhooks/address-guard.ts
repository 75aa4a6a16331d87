import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may go (decision 066): never to a private, loopback, link-local, shared, multicast, documentation
 * or otherwise reserved address, unless the operator allows it (WEBHOOKS_ALLOW_PRIVATE_ADDRESSES). A host name is
 * resolved and every address it resolves to is checked, when the endpoint is saved and again at each send; the
 * connection is then made to the checked addresses only (the lookup below), so a name that resolves differently the
 * second time (DNS rebinding) cannot slip through.
 */
// Two lists: a BlockList checks an IPv4 address against its IPv6 rules too (as IPv4-mapped), so one list holding
// ::ffff:0:0/96 would refuse every IPv4 address.
const INTERNAL_V4 = new BlockList();
const INTERNAL_V6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  INTERNAL_V4.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::', 96], // IPv4-compatible
  ['::ffff:0:0', 96], // IPv4-mapped: a v4 address in disguise
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local
  ['ff00::', 8], // multicast
] as const) {
  INTERNAL_V6.addSubnet(net, prefix, 'ipv6');
}

/** An IP address (v4 or v6) that is not on the public internet. */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 4 ? INTERNAL_V4.check(address, 'ipv4') : INTERNAL_V6.check(address, 'ipv6');
}

export class AddressNotAllowedError extends Error {
  readonly code = 'EADDRNOTALLOWED';
}
export class HostUnresolvedError extends Error {
  readonly code = 'EHOSTUNRESOLVED';
}

/** A URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => {
      if (err || !addresses.length) reject(new HostUnresolvedError(`${host} did not resolve`));
      else resolve(addresses);
    });
  });
}

/** Every address `host` resolves to (itself when it is one), refused when one of them is internal. */
export async function checkedAddresses(host: string, allowPrivate: boolean): Promise<LookupAddress[]> {
  const family = isIP(host);
  const addresses = family ? [{ address: host, family }] : await resolveAll(host);
  if (!allowPrivate) {
    const internal = addresses.find((a) => isInternalAddress(a.address));
    if (internal) throw new AddressNotAllowedError(`${host} resolves to an internal address`);
  }
  return addresses;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request`: the connection goes only to addresses that passed the check, resolved once for it.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (host: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => {
    checkedAddresses(host, allowPrivate).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
        if (!usable.length) {
          callback(new HostUnresolvedError(`${host} has no IPv${wanted} address`), []);
          return;
        }
        const first = usable[0] as LookupAddress;
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}
