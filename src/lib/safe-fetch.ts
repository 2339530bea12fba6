import { decodeDataUri } from "./data-uri.js";
import { createDnsResolver, type DnsResolve } from "./dns-resolver.js";
import { registrableDomain } from "./host-key.js";
import { checkPublicAddress, isLocalhostName, type AddressVerdict } from "./ip-policy.js";
import { createKeyedSlots } from "./keyed-slots.js";
import { hopFail, requestOnce, type HopRequest } from "./safe-fetch-hop.js";
import { userAgent } from "./user-agent";

// Fetcher for user-supplied URLs: submission content_uri, predicate_uri, webhook URLs
// (docs/design.md "Submissions" and "Security and reliability"). Public unicast destinations only,
// checked at connect time and on every redirect; ≤5 redirects; size and time caps.
// Outcomes are data (style rule 8): expected failures come back as { ok:false, reason }.

export type FetchFailure =
  | "invalid_url"
  | "unsupported_scheme"
  | "credentials_in_url"
  | "blocked_address"
  | "dns_error"
  | "connect_error"
  | "response_error"
  | "too_many_redirects"
  | "too_large"
  | "request_too_large"
  | "timeout"
  | "connect_timeout"
  | "host_busy"
  | "ipfs_gateway_not_configured"
  | "arweave_gateway_not_configured"
  | "invalid_data_uri";

export interface SafeFetchOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  maxBytes?: number;
  timeoutMs?: number;
  /** Budget for DNS + TCP connect of each hop, apart from timeoutMs (the whole fetch). */
  connectTimeoutMs?: number;
  maxRedirects?: number;
  /**
   * "manual": a 3xx with a Location is returned as is (status, headers, empty body), never
   * followed — for callers to whom a redirect is itself the answer (webhook deliveries).
   */
  redirect?: "follow" | "manual";
}

/** A non-2xx status is still ok:true — the caller decides what a 404 means to it. */
export type SafeFetchResult =
  | { ok: true; status: number; headers: Record<string, string>; body: Buffer; url: string }
  | { ok: false; reason: FetchFailure; detail?: string };

export interface SafeFetcher {
  fetch(url: string, opts?: SafeFetchOptions): Promise<SafeFetchResult>;
  /**
   * The address policy applied at connect time, for callers that store a URL to fetch later
   * (webhook subscriptions) and want to refuse a literal private address up front.
   */
  checkAddress(ip: string, port: number): AddressVerdict;
}

export interface SafeFetcherConfig {
  /** e.g. "https://ipfs.io/ipfs/"; without it ipfs:// URLs answer ipfs_gateway_not_configured. */
  ipfsGateway?: string;
  /** e.g. "https://arweave.net/"; without it ar:// URLs answer arweave_gateway_not_configured. */
  arweaveGateway?: string;
  maxBytes?: number;
  timeoutMs?: number;
  /**
   * DNS + connect budget of each hop (default 2 s), separate from timeoutMs: a host that never
   * answers DNS or SYN costs this much, not the whole body budget.
   */
  connectTimeoutMs?: number;
  maxRedirects?: number;
  maxRequestBytes?: number;
  /** AIP-1 §7.5.1: `lib/user-agent.ts` builds "oabp-server/0.1.0 (+<public url>/.well-known/agent-card.json)". */
  userAgent?: string;
  /** Tests only: addresses allowed on top of public unicast (e.g. one local server). */
  allowAddress?: (ip: string, port: number) => boolean;
  /**
   * Tests only: DNS without a network. Default: the c-ares resolver of `dns` below (never
   * getaddrinfo, docs/abuse.md "Resolver").
   */
  resolve?: DnsResolve;
  /** The default resolver's settings: name servers ("ip[:port]", empty = the system's), budgets. */
  dns?: { servers?: readonly string[]; timeoutMs?: number; negativeTtlMs?: number };
  /** Hops in flight per registrable domain in this process; past it `host_busy` at once. */
  perDomain?: number;
  /** Hops in flight per resolved address in this process; past it `host_busy` at once. */
  perAddress?: number;
  /** Milliseconds now, for the resolver's negative cache (the injected clock's). */
  now?: () => number;
}

const SAFE_FETCH_DEFAULTS = {
  maxBytes: 10 * 1024 * 1024,
  timeoutMs: 10_000,
  connectTimeoutMs: 2_000,
  maxRedirects: 5,
  maxRequestBytes: 1024 * 1024,
  userAgent: userAgent(),
  dnsTimeoutMs: 1_500,
  dnsNegativeTtlMs: 30_000,
  perDomain: 8,
  perAddress: 8,
} as const;

const fail = (reason: FetchFailure, detail?: string): SafeFetchResult => hopFail(reason, detail);

// Headers that describe the connection, not the request: ours to set, never the caller's.
const HOP_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection"]);
// Fetch spec: credentials do not follow a redirect to another origin.
const ORIGIN_BOUND_HEADERS = ["authorization", "cookie", "proxy-authorization"];

type Limits = Required<
  Pick<
    SafeFetcherConfig,
    "maxBytes" | "timeoutMs" | "connectTimeoutMs" | "maxRedirects" | "maxRequestBytes" | "userAgent"
  >
>;

/** What one hop sends; a redirect rewrites it (redirectRequest). */
type Outgoing = Pick<HopRequest, "url" | "method" | "headers" | "body">;

function limitsOf(config: SafeFetcherConfig): Limits {
  const d = SAFE_FETCH_DEFAULTS;
  return {
    maxBytes: config.maxBytes ?? d.maxBytes,
    timeoutMs: config.timeoutMs ?? d.timeoutMs,
    connectTimeoutMs: config.connectTimeoutMs ?? d.connectTimeoutMs,
    maxRedirects: config.maxRedirects ?? d.maxRedirects,
    maxRequestBytes: config.maxRequestBytes ?? d.maxRequestBytes,
    userAgent: config.userAgent ?? d.userAgent,
  };
}

/** The c-ares resolver (docs/abuse.md "Resolver"), unless the config brings its own. */
function resolverOf(config: SafeFetcherConfig, limits: Limits): DnsResolve {
  if (config.resolve) return config.resolve;
  return createDnsResolver({
    servers: config.dns?.servers,
    // Never more than the hop's DNS + connect budget: one budget for both (requestOnce).
    timeoutMs: Math.min(config.dns?.timeoutMs ?? SAFE_FETCH_DEFAULTS.dnsTimeoutMs, limits.connectTimeoutMs),
    negativeTtlMs: config.dns?.negativeTtlMs ?? SAFE_FETCH_DEFAULTS.dnsNegativeTtlMs,
    now: config.now ?? Date.now,
  }).resolve;
}

/**
 * The http(s) URL to fetch: `ipfs://` and `ar://` rewritten onto their gateways, or the outcome
 * itself (a `data:` URI is decoded here, a bad URL refused).
 */
function httpTarget(
  raw: string,
  maxBytes: number,
  gateways: { ipfs: URL | undefined; arweave: URL | undefined },
): URL | SafeFetchResult {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail("invalid_url");
  }
  if (url.protocol === "data:") {
    const decoded = decodeDataUri(url, maxBytes);
    if (!decoded.ok) return decoded;
    return { ok: true, status: 200, headers: { "content-type": decoded.mediaType }, body: decoded.body, url: url.href };
  }
  if (url.username !== "" || url.password !== "") return fail("credentials_in_url");
  if (url.protocol === "ipfs:") {
    if (gateways.ipfs === undefined) return fail("ipfs_gateway_not_configured");
    return ipfsToGateway(url, gateways.ipfs) ?? fail("invalid_url", "bad ipfs CID or path");
  }
  if (url.protocol === "ar:") {
    // Arweave: ar://<tx id>[/path] → <gateway><tx id>[/path],
    // then fetched like any https URL (every hop checked, bounded, no private address).
    if (gateways.arweave === undefined) return fail("arweave_gateway_not_configured");
    return arweaveToGateway(url, gateways.arweave) ?? fail("invalid_url", "bad Arweave transaction id or path");
  }
  return url;
}

/** The request after a redirect to `location`, or the failure of a bad Location. */
function redirectRequest(req: Outgoing, status: number, location: string): Outgoing | SafeFetchResult {
  let next: URL;
  try {
    next = new URL(location, req.url); // a relative Location resolves against this hop
  } catch {
    return fail("invalid_url", "bad Location header");
  }
  let { method, body, headers } = req;
  // RFC 9110 §15.4: 301/302 (in practice) and 303 turn into a body-less GET;
  // 307/308 repeat the same method and body.
  if (status === 301 || status === 302 || status === 303) {
    method = "GET";
    body = undefined;
    headers = without(headers, ["content-type"]);
  }
  if (next.origin !== req.url.origin) headers = without(headers, ORIGIN_BOUND_HEADERS);
  return { url: next, method, headers, body };
}

export function createSafeFetcher(config: SafeFetcherConfig = {}): SafeFetcher {
  const limits = limitsOf(config);
  const gateways = {
    ipfs: config.ipfsGateway ? parseGateway(config.ipfsGateway) : undefined, // "" = not configured
    arweave: config.arweaveGateway ? parseGateway(config.arweaveGateway) : undefined,
  };
  const resolve = resolverOf(config, limits);
  const domainSlots = createKeyedSlots(config.perDomain ?? SAFE_FETCH_DEFAULTS.perDomain);
  const addressSlots = createKeyedSlots(config.perAddress ?? SAFE_FETCH_DEFAULTS.perAddress);
  const allowAddress = config.allowAddress;
  const checkAddress = (ip: string, port: number): AddressVerdict =>
    allowAddress?.(ip, port) ? { ok: true } : checkPublicAddress(ip);

  /** Every hop of one fetch, following redirects up to the limit, under one deadline. */
  async function follow(first: Outgoing, opts: SafeFetchOptions, maxBytes: number): Promise<SafeFetchResult> {
    const maxRedirects = opts.maxRedirects ?? limits.maxRedirects;
    const connectTimeoutMs = opts.connectTimeoutMs ?? limits.connectTimeoutMs;
    // One deadline for the whole fetch: DNS, connect, headers and body of every hop; and a
    // shorter one for each hop's DNS + connect (requestOnce).
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? limits.timeoutMs);
    let req = first;
    try {
      for (let redirects = 0; ; redirects++) {
        const refusal = refuseHttpUrl(req.url);
        if (refusal !== undefined) return refusal;
        // One slot on the host's registrable domain for this hop, or host_busy at once: a worker
        // is never parked behind a domain that already holds its share (docs/abuse.md "Resolver").
        const releaseDomain = domainSlots.tryAcquire(registrableDomain(req.url.hostname));
        if (releaseDomain === undefined) return fail("host_busy", "domain");
        const hop = await requestOnce({
          ...req,
          maxBytes,
          signal: controller.signal,
          connectTimeoutMs,
          checkAddress,
          resolve,
          addressSlots,
        }).finally(releaseDomain);
        if (!hop.ok) return hop;
        if (hop.location === undefined || opts.redirect === "manual")
          return { ok: true, status: hop.status, headers: hop.headers, body: hop.body, url: req.url.href };
        if (redirects >= maxRedirects) return fail("too_many_redirects", `more than ${maxRedirects}`);
        const next = redirectRequest(req, hop.status, hop.location);
        if ("ok" in next) return next;
        req = next;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  async function fetch(raw: string, opts: SafeFetchOptions = {}): Promise<SafeFetchResult> {
    const maxBytes = opts.maxBytes ?? limits.maxBytes;
    const url = httpTarget(raw, maxBytes, gateways);
    if (!(url instanceof URL)) return url;
    const body = opts.body === undefined ? undefined : Buffer.from(opts.body);
    if (body !== undefined && body.length > limits.maxRequestBytes) return fail("request_too_large");
    const method = opts.method ?? (body === undefined ? "GET" : "POST");
    return follow({ url, method, headers: requestHeaders(opts.headers, limits.userAgent), body }, opts, maxBytes);
  }

  return { fetch, checkAddress };
}

// Every hop, the first and each redirect target, must be plain http(s) without credentials:
// a redirect to file:, data:, ipfs: or gopher: is refused, not interpreted.
function refuseHttpUrl(url: URL): SafeFetchResult | undefined {
  if (url.protocol !== "https:" && url.protocol !== "http:") return fail("unsupported_scheme", url.protocol);
  if (url.username !== "" || url.password !== "") return fail("credentials_in_url");
  if (isLocalhostName(url.hostname)) return fail("blocked_address", "localhost");
  return undefined;
}

function ipfsToGateway(url: URL, gateway: URL): URL | undefined {
  const cid = url.hostname;
  // CIDv0 is base58btc, CIDv1 usually base32/base36: letters and digits only.
  if (!/^[A-Za-z0-9]+$/.test(cid)) return undefined;
  const prefix = gateway.href + cid;
  const target = new URL(prefix + url.pathname + url.search);
  // Dot segments (also %2e%2e) must not climb out of the gateway's /ipfs/<cid> prefix.
  return target.href === prefix || target.href.startsWith(prefix + "/") || target.href.startsWith(prefix + "?")
    ? target
    : undefined;
}

/** An Arweave transaction id: 32 bytes, base64url, 43 characters. */
export const ARWEAVE_TX_ID = /^[A-Za-z0-9_-]{43}$/;

function arweaveToGateway(url: URL, gateway: URL): URL | undefined {
  const id = url.hostname;
  if (!ARWEAVE_TX_ID.test(id)) return undefined;
  const prefix = gateway.href + id;
  const target = new URL(prefix + url.pathname + url.search);
  // As for ipfs: dot segments must not climb out of <gateway><tx id>.
  return target.href === prefix || target.href.startsWith(prefix + "/") || target.href.startsWith(prefix + "?")
    ? target
    : undefined;
}

// A bad gateway is an operator error, caught at start-up rather than reported per fetch.
function parseGateway(raw: string): URL {
  const url = new URL(raw.endsWith("/") ? raw : `${raw}/`);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`a gateway must be an http(s) URL, got ${url.protocol}`);
  }
  return url;
}

function requestHeaders(given: Record<string, string> | undefined, userAgent: string): Record<string, string> {
  const out: Record<string, string> = { "user-agent": userAgent };
  for (const [name, value] of Object.entries(given ?? {})) {
    const key = name.toLowerCase();
    if (!HOP_HEADERS.has(key)) out[key] = value;
  }
  return out;
}

function without(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  const out = { ...headers };
  for (const name of names) delete out[name];
  return out;
}
