import { isIP } from "node:net";
import { getDomain } from "tldts";

// Which hosts share a cap (docs/abuse.md "Resolver"): the registrable domain by the Public
// Suffix List (tldts ships it, private section included), so j1.evil.example … j50.evil.example
// share one cap while alice.github.io and bob.github.io do not. An IP literal is its own key; a
// name the list cannot place (a single label, a bare suffix) is keyed by itself.

/** The registrable domain of a hostname ("a.b.evil.co.uk" → "evil.co.uk"), lower case. */
export function registrableDomain(hostname: string): string {
  const host = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  if (isIP(host) !== 0) return host;
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}
