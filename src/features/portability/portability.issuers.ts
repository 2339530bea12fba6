import { parseJsonBounded } from "../../lib/json-text";
import type { Deps } from "../../deps";
import { createSafeFetcher, type SafeFetcher } from "../../lib/safe-fetch";
import { userAgent } from "../../lib/user-agent";

// AIP-3 §4 step 2 / §6: an issuer's key comes from its own manifest (`issuer_address`, AIP-3
// §10.2), fetched through the SSRF-safe fetcher and cached here per app: at most MAX_ENTRIES
// issuers for TTL_MS each (a cache, not shared state: another instance simply fetches again).

const TTL_MS = 10 * 60_000;
const MAX_ENTRIES = 256;
const MAX_MANIFEST_BYTES = 256 * 1024;

export type IssuerKey =
  { ok: true; address: string } | { ok: false; reason: "issuer_unreachable" | "issuer_key_missing"; detail: string };

const caches = new WeakMap<Deps, Map<string, { at: number; value: IssuerKey }>>();

/** Normalised issuer base URL: no trailing slash, lowercase scheme and host. */
export function normaliseIssuer(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.protocol !== "https:" && u.protocol !== "http:") return null;
    if (u.username || u.password || u.search || u.hash) return null;
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}`;
  } catch {
    return null;
  }
}

export function trustedIssuer(deps: Deps, issuer: string) {
  return deps.config.aip34.trustedIssuers.find((t) => normaliseIssuer(t.url) === issuer);
}

export async function issuerKey(deps: Deps, issuer: string): Promise<IssuerKey> {
  let cache = caches.get(deps);
  if (!cache) caches.set(deps, (cache = new Map()));
  const now = deps.clock.now().getTime();
  const hit = cache.get(issuer);
  if (hit && now - hit.at < TTL_MS) return hit.value;
  const value = await fetchIssuerKey(deps, issuer);
  // Only successes are cached: an unreachable issuer is retried on the next import.
  if (value.ok) {
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(issuer, { at: now, value });
  }
  return value;
}

const privateFetchers = new WeakMap<Deps, Map<string, SafeFetcher>>();

/**
 * The fetcher for one issuer's manifest. A trusted issuer configured with `private_address` is
 * reached through a fetcher of its own that admits exactly that address and the URL's port and
 * follows no redirect; every other issuer goes through the shared SSRF-safe fetcher, whose
 * public-only rule is never loosened (docs/aip-3-4.md "Private issuers").
 */
function fetcherFor(deps: Deps, issuer: string): SafeFetcher {
  const t = trustedIssuer(deps, issuer);
  if (!t?.private_address) return deps.fetcher;
  let byIssuer = privateFetchers.get(deps);
  if (!byIssuer) privateFetchers.set(deps, (byIssuer = new Map()));
  let f = byIssuer.get(issuer);
  if (!f) {
    const u = new URL(issuer);
    const port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
    const address = t.private_address.toLowerCase();
    f = createSafeFetcher({
      allowAddress: (ip, p) => ip.toLowerCase() === address && p === port,
      maxRedirects: 0,
      userAgent: userAgent(deps.config.publicUrl),
    });
    byIssuer.set(issuer, f);
  }
  return f;
}

/**
 * GET a JSON document at or under an issuer's base URL (≤ 256 KiB, the fetch timeout), through the
 * issuer's fetcher: its own for a trusted private issuer, else the shared SSRF-safe one.
 */
export async function fetchIssuerJson(
  deps: Deps,
  { issuer, url }: { issuer: string; url: string },
): Promise<{ ok: true; doc: unknown } | { ok: false; detail: string }> {
  const r = await fetcherFor(deps, issuer).fetch(url, {
    maxBytes: MAX_MANIFEST_BYTES,
    headers: { accept: "application/json" },
  });
  if (!r.ok) return { ok: false, detail: r.reason };
  if (r.status !== 200) return { ok: false, detail: `${url} answered ${r.status}` };
  try {
    return { ok: true, doc: parseJsonBounded(r.body.toString("utf8")) };
  } catch {
    return { ok: false, detail: `${url} is not JSON` };
  }
}

/** The trusted issuer whose base URL holds `url`, else the URL's origin (normalised). */
export function issuerHolding(deps: Deps, url: string): string | null {
  const t = deps.config.aip34.trustedIssuers
    .map((x) => normaliseIssuer(x.url))
    .find((base) => base !== null && url.startsWith(`${base}/`));
  return t ?? normaliseIssuer(new URL(url).origin);
}

async function fetchIssuerKey(deps: Deps, issuer: string): Promise<IssuerKey> {
  const r = await fetchIssuerJson(deps, { issuer, url: `${issuer}/.well-known/oabp.json` });
  if (!r.ok) return { ok: false, reason: "issuer_unreachable", detail: r.detail };
  const doc = r.doc;
  const address = (doc as { issuer_address?: unknown } | null)?.issuer_address;
  if (typeof address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(address))
    return { ok: false, reason: "issuer_key_missing", detail: "manifest has no issuer_address" };
  return { ok: true, address: address.toLowerCase() };
}
