import ipaddr from "ipaddr.js";

// The client network a per-IP limit keys on (docs/abuse-edge.md "Client networks"): an IPv4
// address as is; an IPv6 address by its first `v6Prefix` bits (a /64 by default — one subscriber
// is routinely handed a whole /64, so 2^64 addresses are one client); an IPv4-mapped IPv6 address
// (::ffff:a.b.c.d, what a dual-stack socket reports) as its IPv4 address. Anything unparsable is
// keyed as given.

/** IPv6 clients are one client per this many leading bits (a /64); IPv4 per address. */
export const CLIENT_V6_PREFIX = 64;

/** A dotted quad as ipaddr.js prints it (no leading zeros): kept as is without a parse. */
const DOTTED_QUAD = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

export function clientNetwork(ip: string, v6Prefix: number): string {
  // Behind a proxy every request's address is parsed: the common case first.
  if (DOTTED_QUAD.test(ip)) return ip;
  const raw = ip.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (!ipaddr.isValid(raw)) return raw;
  const addr = ipaddr.parse(raw);
  if (addr.kind() === "ipv4") return addr.toString();
  const v6 = addr as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  if (v6Prefix >= 128) return v6.toNormalizedString();
  const bytes = v6.toByteArray();
  for (let bit = v6Prefix; bit < 128; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(bytes).toString()}/${v6Prefix}`;
}
