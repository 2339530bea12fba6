import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { AddressVerdict } from "./ip-policy.js";
import type { KeyedSlots } from "./keyed-slots.js";
import type { FetchFailure } from "./safe-fetch.js";

// One HTTP(S) request of a safe fetch: no redirect following here (the caller re-validates
// every hop). The address check runs INSIDE the socket's DNS lookup, so the address that was
// checked is the address connected to — a second resolution (DNS rebinding) cannot slip in.

export type HopFailure = { ok: false; reason: FetchFailure; detail?: string };
export type HopResult =
  { ok: true; status: number; headers: Record<string, string>; body: Buffer; location?: string } | HopFailure;

export interface HopRequest {
  url: URL;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body: Buffer | undefined;
  maxBytes: number;
  signal: AbortSignal;
  /** DNS + TCP connect must finish within this, or the hop fails with connect_timeout. */
  connectTimeoutMs: number;
  checkAddress: (ip: string, port: number) => AddressVerdict;
  /** Resolves a name; must give up when `signal` aborts (the hop settled or its budget ended). */
  resolve: (host: string, signal?: AbortSignal) => Promise<string[]>;
  /** Caps per resolved address (docs/abuse.md "Resolver"): every address of the answer takes a slot. */
  addressSlots?: KeyedSlots;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const EMPTY = Buffer.alloc(0);

export const hopFail = (reason: FetchFailure, detail?: string): HopFailure =>
  detail === undefined ? { ok: false, reason } : { ok: false, reason, detail };

/** Slots on the addresses a hop connects to (every address of the answer), released when it settles. */
function addressHold(slots: KeyedSlots | undefined): {
  take(addresses: readonly string[]): boolean;
  releaseAll(): void;
} {
  const releases: (() => void)[] = [];
  return {
    take(addresses) {
      for (const address of new Set(addresses)) {
        const release = slots?.tryAcquire(address);
        if (slots !== undefined && release === undefined) return false;
        if (release !== undefined) releases.push(release);
      }
      return true;
    },
    releaseAll: () => releases.splice(0).forEach((release) => release()),
  };
}

/**
 * The socket's `lookup`: resolves through `req.resolve` (stopped by `abort`), checks EVERY
 * address — a name answering one public and one private address must not leave the choice to
 * happy-eyeballs — and takes the addresses' slots, or settles the hop with the reason.
 */
function checkedLookup(
  req: HopRequest,
  port: number,
  hop: { settled(): boolean; settle(r: HopResult): void; abort: AbortSignal; take(a: readonly string[]): boolean },
): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    req.resolve(hostname, hop.abort).then(
      (addresses) => {
        if (hop.settled()) return;
        if (addresses.length === 0) return refuseLookup(callback, hop.settle, hopFail("dns_error", "no addresses"));
        for (const address of addresses) {
          const verdict = req.checkAddress(address, port);
          if (!verdict.ok) return refuseLookup(callback, hop.settle, hopFail("blocked_address", verdict.range));
        }
        if (!hop.take(addresses)) return refuseLookup(callback, hop.settle, hopFail("host_busy", "address"));
        const entries = addresses.map((address) => ({ address, family: isIP(address) }));
        if (options.all) callback(null, entries);
        else callback(null, entries[0]!.address, entries[0]!.family);
      },
      (err: unknown) => refuseLookup(callback, hop.settle, hopFail("dns_error", errorCode(err))),
    );
  }) as unknown as LookupFunction;
}

/** Reads a response up to `maxBytes` (a redirect's body is never read: the caller decides whether to follow). */
function readResponse(res: http.IncomingMessage, maxBytes: number, settle: (r: HopResult) => void): void {
  const status = res.statusCode ?? 0;
  const headers = flattenHeaders(res.headers);
  const location = REDIRECT_STATUSES.has(status) ? headers["location"] : undefined;
  if (location !== undefined) return settle({ ok: true, status, headers, body: EMPTY, location });
  const declared = Number(headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) return settle(hopFail("too_large"));
  const chunks: Buffer[] = [];
  let size = 0;
  res.on("data", (chunk: Buffer) => {
    size += chunk.length;
    // Stop reading the moment the cap is passed; settle() destroys the socket.
    if (size > maxBytes) return settle(hopFail("too_large"));
    chunks.push(chunk);
  });
  res.on("end", () => settle({ ok: true, status, headers, body: Buffer.concat(chunks, size) }));
  res.on("error", (err) => settle(hopFail("response_error", errorCode(err))));
  res.on("close", () => {
    if (!res.complete) settle(hopFail("response_error", "response cut short"));
  });
}

export function requestOnce(req: HopRequest): Promise<HopResult> {
  const { url, signal } = req;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  if (signal.aborted) return Promise.resolve(hopFail("timeout"));
  const hold = addressHold(req.addressSlots);

  // Node connects to a literal IP without calling `lookup`, so literals are judged here.
  if (isIP(host) !== 0) {
    const verdict = req.checkAddress(host, port);
    if (!verdict.ok) return Promise.resolve(hopFail("blocked_address", verdict.range));
    if (!hold.take([host])) return Promise.resolve(hopFail("host_busy", "address"));
  }

  return new Promise<HopResult>((resolvePromise) => {
    let settled = false;
    let connectTimer: NodeJS.Timeout | undefined;
    // The lookup stops the moment the hop settles (budget over, whole fetch aborted): a name
    // server that never answers holds nothing past the connect budget.
    const lookupAbort = new AbortController();
    const settle = (result: HopResult) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      clearTimeout(connectTimer);
      lookupAbort.abort();
      hold.releaseAll();
      if (!result.ok || result.location !== undefined) request.destroy();
      resolvePromise(result);
    };
    const onAbort = () => settle(hopFail("timeout"));
    const lookup = checkedLookup(req, port, {
      settled: () => settled,
      settle,
      abort: lookupAbort.signal,
      take: hold.take,
    });

    const transport = url.protocol === "https:" ? https : http;
    const request = transport.request({
      protocol: url.protocol,
      hostname: host,
      port,
      path: url.pathname + url.search,
      method: req.method,
      headers: req.body === undefined ? req.headers : { ...req.headers, "content-length": String(req.body.length) },
      lookup,
      // No pooled sockets: every request connects (and is checked) afresh. Connecting by name
      // through `lookup` keeps TLS SNI, certificate check and Host on the hostname.
      agent: false,
    });
    signal.addEventListener("abort", onAbort, { once: true });
    // A resolver or host that never answers costs the connect budget, not the whole fetch's.
    connectTimer = setTimeout(() => settle(hopFail("connect_timeout")), req.connectTimeoutMs);

    request.on("error", (err) => settle(hopFail("connect_error", errorCode(err))));
    // Belt and braces: the peer must be an address the policy accepts, whatever path led there.
    request.on("socket", (socket) => {
      socket.once("connect", () => {
        clearTimeout(connectTimer);
        const peer = socket.remoteAddress ?? "";
        const verdict = req.checkAddress(peer, port);
        if (!verdict.ok) settle(hopFail("blocked_address", verdict.range));
      });
    });
    request.on("response", (res) => readResponse(res, req.maxBytes, settle));
    request.end(req.body);
  });
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address?: string | { address: string; family: number }[],
  family?: number,
) => void;

function refuseLookup(callback: LookupCallback, settle: (r: HopResult) => void, failure: HopFailure): void {
  // Settle first so the outcome is the precise reason, not the socket error that follows.
  settle(failure);
  const err: NodeJS.ErrnoException = new Error(failure.reason);
  err.code = failure.reason === "dns_error" ? "ENOTFOUND" : failure.reason === "host_busy" ? "EBUSY" : "EADDRNOTAVAIL";
  callback(err);
}

function errorCode(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e && typeof e.code === "string") return e.code;
  return e && typeof e.message === "string" ? e.message : "unknown";
}

function flattenHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
