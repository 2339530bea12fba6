import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { itemAt } from "./item-at";

// Which addresses the server may connect to on a user's behalf (docs/design.md "Security and
// reliability": SSRF-safe fetching). Only public unicast passes; everything ipaddr.js files
// under a special-purpose range (loopback, RFC 1918, link-local incl. 169.254.169.254, CGNAT,
// 0/8, multicast, broadcast, documentation, benchmarking 198.18/15, 240/4, ULA, Teredo,
// discard-only, ORCHID, ...) is refused. Fails closed: anything that is not a plain IP is refused.

export type AddressVerdict = { ok: true } | { ok: false; range: string };

const ALLOWED: AddressVerdict = { ok: true };
const refuse = (range: string): AddressVerdict => ({ ok: false, range });

// 2000::/3 is the only IANA global-unicast allocation. ipaddr.js calls everything it has no
// name for "unicast", which would let through e.g. the deprecated IPv4-compatible form
// ::127.0.0.1 (= ::7f00:1) — so v6 must also sit inside 2000::/3.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");
// RFC 6052 well-known NAT64 prefix: the last 32 bits are the IPv4 destination the NAT64
// gateway will reach. The local-use 64:ff9b:1::/48 (RFC 8215) is refused outright.
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");

const v4FromWords = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

function checkV4(addr: ipaddr.IPv4): AddressVerdict {
  const range = addr.range();
  return range === "unicast" ? ALLOWED : refuse(range);
}

function checkV6(addr: ipaddr.IPv6): AddressVerdict {
  const range = addr.range();
  const p = addr.parts;
  // Forms that carry an IPv4 destination are judged by that destination, so
  // ::ffff:127.0.0.1, 64:ff9b::7f00:1 and 2002:7f00:1:: are loopback, not "IPv6".
  if (range === "ipv4Mapped") return checkV4(addr.toIPv4Address());
  if (range === "rfc6052") {
    return addr.match(NAT64_WELL_KNOWN)
      ? checkV4(v4FromWords(itemAt(p, 6, "IPv6 words"), itemAt(p, 7, "IPv6 words")))
      : refuse(range);
  }
  if (range === "6to4") return checkV4(v4FromWords(itemAt(p, 1, "IPv6 words"), itemAt(p, 2, "IPv6 words")));
  if (range !== "unicast") return refuse(range);
  return addr.match(GLOBAL_UNICAST_V6) ? ALLOWED : refuse("non_global_ipv6");
}

/** Is `ip` (a textual IPv4/IPv6 address, as a resolver or URL parser gives it) public unicast? */
export function checkPublicAddress(ip: string): AddressVerdict {
  const family = isIP(ip);
  if (family === 0) return refuse("not_an_ip");
  try {
    const addr = ipaddr.parse(ip);
    return addr instanceof ipaddr.IPv4 ? checkV4(addr) : checkV6(addr);
  } catch {
    return refuse("not_an_ip");
  }
}

// RFC 6761 §6.3: "localhost" and names below it are loopback whatever DNS says; refusing them
// by name avoids asking a resolver that might be misconfigured.
export function isLocalhostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost");
}
