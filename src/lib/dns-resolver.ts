import { Resolver } from "node:dns/promises";

// Name resolution for user-supplied URLs that a tarpit cannot hold (docs/abuse.md "Resolver").
// `dns.lookup` (getaddrinfo) runs on libuv's small thread pool, shared with file and crypto
// work, and cannot be cancelled: a name server that never answers keeps a pool thread for the
// system resolver's whole timeout, and a few dozen such names starve every other lookup. This
// resolver speaks DNS itself (c-ares through `dns.Resolver`, on the event loop), bounds each
// lookup (per-try timeout, tries, and an overall deadline that cancels the queries), gives up at
// once when the caller's budget ends, and remembers failed names briefly so retries of a dead
// name cost nothing.

export interface DnsResolverConfig {
  /** "ip" or "ip:port" (IPv6 as "[ip]:port"); empty = the system's name servers (resolv.conf). */
  servers?: readonly string[];
  /** One lookup (A and AAAA together, every try) ends after this. */
  timeoutMs: number;
  /** Queries per name server before it is given up on (c-ares `tries`). */
  tries?: number;
  /** A name that failed is answered from memory with the same failure for this long. */
  negativeTtlMs: number;
  /** Milliseconds now (the injected clock's). */
  now: () => number;
  /** Names remembered at most (oldest forgotten first). */
  maxNegative?: number;
}

export type DnsResolve = (host: string, signal?: AbortSignal) => Promise<string[]>;

interface DnsResolverStats {
  lookups: number;
  negativeHits: number;
  timeouts: number;
}

export interface DnsResolver {
  resolve: DnsResolve;
  stats(): DnsResolverStats;
}

const dnsError = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });

export function createDnsResolver(config: DnsResolverConfig): DnsResolver {
  const tries = config.tries ?? 2;
  const maxNegative = config.maxNegative ?? 10_000;
  // c-ares backs off between tries; the per-try timeout is the lookup budget split over them.
  const perTryMs = Math.max(50, Math.floor(config.timeoutMs / (tries + 1)));
  const negative = new Map<string, { code: string; until: number }>();
  const stats: DnsResolverStats = { lookups: 0, negativeHits: 0, timeouts: 0 };

  function remember(host: string, code: string): void {
    if (config.negativeTtlMs <= 0) return;
    negative.delete(host);
    negative.set(host, { code, until: config.now() + config.negativeTtlMs });
    if (negative.size > maxNegative) negative.delete(negative.keys().next().value!);
  }

  /** The remembered failure of `host`, if still fresh (counted as a negative hit). */
  function knownFailure(host: string): string | undefined {
    const known = negative.get(host);
    if (known === undefined) return undefined;
    if (known.until > config.now()) {
      stats.negativeHits++;
      return known.code;
    }
    negative.delete(host);
    return undefined;
  }

  /** A and AAAA of `host` on a channel of its own, cancelled at the deadline or by `signal`. */
  async function query(host: string, signal?: AbortSignal): Promise<{ addresses: string[]; failure?: string }> {
    // One channel per lookup, so cancelling it cancels this lookup's queries and nobody else's.
    const resolver = new Resolver({ timeout: perTryMs, tries });
    if (config.servers !== undefined && config.servers.length > 0) resolver.setServers([...config.servers]);
    let timedOut = false;
    const cancel = () => resolver.cancel();
    const timer = setTimeout(() => {
      timedOut = true;
      cancel();
    }, config.timeoutMs);
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
      const addresses = [
        ...(v4.status === "fulfilled" ? v4.value : []),
        ...(v6.status === "fulfilled" ? v6.value : []),
      ];
      if (addresses.length > 0) return { addresses };
      if (signal?.aborted && !timedOut) return { addresses, failure: "ECANCELLED" };
      return { addresses, failure: timedOut ? "ETIMEOUT" : failureCode(v4, v6) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", cancel);
    }
  }

  async function resolve(raw: string, signal?: AbortSignal): Promise<string[]> {
    const host = raw.toLowerCase().replace(/\.$/, "");
    const known = knownFailure(host);
    if (known !== undefined) throw dnsError(known);
    if (signal?.aborted) throw dnsError("ECANCELLED");
    stats.lookups++;
    const { addresses, failure } = await query(host, signal);
    if (failure === undefined) return addresses;
    if (failure === "ECANCELLED") throw dnsError(failure); // the caller gave up: not the name's fault
    if (failure === "ETIMEOUT") stats.timeouts++;
    remember(host, failure);
    throw dnsError(failure);
  }

  return { resolve, stats: () => ({ ...stats }) };
}

function failureCode(...results: PromiseSettledResult<string[]>[]): string {
  const codes = results.map((r) =>
    r.status === "rejected" ? ((r.reason as { code?: string }).code ?? "") : "ENODATA",
  );
  // A timeout on either family is a timeout; else the most telling code (ENOTFOUND over ENODATA).
  if (codes.includes("ETIMEOUT") || codes.includes("ECANCELLED")) return "ETIMEOUT";
  return codes.find((c) => c !== "ENODATA" && c !== "") ?? "ENODATA";
}
