import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSafeFetcher, type SafeFetchResult } from "../../src/lib/safe-fetch.js";

// SSRF matrix for the safe fetcher (docs/design.md "Security and reliability"). A canary server on
// 127.0.0.1 (and ::1) counts every TCP connection: however the hostile URLs are spelled, it
// must see none. A second server on 127.0.0.2 — also loopback on Linux — is the one destination
// the "allowed" fetcher may reach, so redirects from it prove each hop is re-checked.

const MiB = 1024 * 1024;
let canaryConnections = 0;
const canaries: http.Server[] = [];
let canaryPort = 0;
let allowed: http.Server;
let allowedPort = 0;
let base = "";
const bigStream = { sent: 0, done: Promise.resolve() };

const listen = (server: http.Server, port: number, host: string) =>
  new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
const close = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

async function streamBytes(res: http.ServerResponse, total: number): Promise<void> {
  res.writeHead(200, { "content-type": "application/octet-stream" });
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  while (bigStream.sent < total && !res.destroyed) {
    const more = res.write(chunk);
    bigStream.sent += chunk.length;
    if (!more)
      await new Promise<void>((r) => {
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          r();
        };
        res.on("drain", done).on("close", done);
      });
  }
  res.end();
}

function route(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
  const path = req.url ?? "/";
  const redirect = (status: number, to: string): void => void res.writeHead(status, { location: to }).end();
  const chain = /^\/chain\/(\d+)$/.exec(path);
  if (chain) {
    const n = Number(chain[1]);
    return n === 0 ? void res.end("end of chain") : redirect(302, `/chain/${n - 1}`);
  }
  if (path.startsWith("/ipfs/")) return void res.end(`gateway:${path}`);
  switch (path) {
    case "/hello":
      return void res.end("hello world");
    case "/missing":
      return void res.writeHead(404).end("nope");
    case "/echo":
      return void res.end(
        JSON.stringify({
          method: req.method,
          body,
          type: req.headers["content-type"] ?? null,
          host: req.headers.host,
          auth: req.headers.authorization ?? null,
          ua: req.headers["user-agent"],
        }),
      );
    case "/303":
      return redirect(303, "/echo");
    case "/302":
      return redirect(302, "/echo");
    case "/307":
      return redirect(307, "/echo");
    case "/relative":
      return redirect(301, "hello");
    case "/to-other-origin":
      return redirect(307, `http://allowed.test:${allowedPort}/echo`);
    case "/to-canary":
      return redirect(302, `http://127.0.0.1:${canaryPort}/`);
    case "/to-canary-v6":
      return redirect(302, `http://[::1]:${canaryPort}/`);
    case "/to-canary-decimal":
      return redirect(302, `http://2130706433:${canaryPort}/`);
    case "/to-canary-name":
      return redirect(302, `http://localhost:${canaryPort}/`);
    case "/to-file":
      return redirect(302, "file:///etc/passwd");
    case "/to-data":
      return redirect(302, "data:,secret");
    case "/big":
      bigStream.sent = 0;
      bigStream.done = streamBytes(res, 20 * MiB);
      return;
    case "/declared-big":
      return void res.writeHead(200, { "content-length": String(20 * MiB) }).end();
    case "/hang":
      return; // never answers
    case "/trickle": {
      res.writeHead(200);
      const t = setInterval(() => res.write("."), 50);
      res.on("close", () => clearInterval(t));
      return;
    }
    default:
      return void res.writeHead(500).end("unexpected path");
  }
}

beforeAll(async () => {
  const canary = http.createServer((_req, res) => res.end("CANARY"));
  canary.on("connection", () => canaryConnections++);
  await listen(canary, 0, "127.0.0.1");
  canaries.push(canary);
  canaryPort = (canary.address() as AddressInfo).port;
  const canary6 = http.createServer((_req, res) => res.end("CANARY"));
  canary6.on("connection", () => canaryConnections++);
  // ::1 may be missing in some containers; the v4 canary still guards the rest.
  if (
    await listen(canary6, canaryPort, "::1").then(
      () => true,
      () => false,
    )
  )
    canaries.push(canary6);

  allowed = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => route(req, res, Buffer.concat(chunks).toString()));
  });
  await listen(allowed, 0, "127.0.0.2");
  allowedPort = (allowed.address() as AddressInfo).port;
  base = `http://127.0.0.2:${allowedPort}`;
});

afterAll(async () => {
  await Promise.all([...canaries, allowed].map(close));
});

const fakeDns: Record<string, string[]> = {
  "loopback.test": ["127.0.0.1"],
  "mixed.test": ["93.184.216.34", "10.0.0.5"],
  "metadata.test": ["169.254.169.254"],
  "mapped.test": ["::ffff:127.0.0.1"],
  "allowed.test": ["127.0.0.2"],
};
const resolve = async (host: string) => {
  const found = fakeDns[host];
  if (!found) throw Object.assign(new Error(`no such host ${host}`), { code: "ENOTFOUND" });
  return found;
};
// Only the 127.0.0.2 server on its one port; the canary on 127.0.0.1 stays blocked.
const allowAddress = (ip: string, port: number) => ip === "127.0.0.2" && port === allowedPort;
const strict = () => createSafeFetcher({ resolve, timeoutMs: 2_000 });
const permissive = (extra: Parameters<typeof createSafeFetcher>[0] = {}) =>
  createSafeFetcher({ resolve, allowAddress, timeoutMs: 2_000, ...extra });

const failure = (r: SafeFetchResult) => (r.ok ? `ok:${r.status}` : r.reason);

describe("safe fetch: hostile destinations", () => {
  it("refuses every loopback, private and special address spelling, and the canary sees nothing", async () => {
    const p = () => canaryPort;
    const cases: [string, string][] = [
      [`http://localhost:${p()}/`, "blocked_address"],
      [`http://localhost.:${p()}/`, "blocked_address"],
      [`http://api.localhost:${p()}/`, "blocked_address"],
      [`http://127.0.0.1:${p()}/`, "blocked_address"],
      [`https://127.0.0.1:${p()}/`, "blocked_address"],
      [`http://127.1:${p()}/`, "blocked_address"],
      [`http://0x7f000001:${p()}/`, "blocked_address"],
      [`http://0x7f.1:${p()}/`, "blocked_address"],
      [`http://2130706433:${p()}/`, "blocked_address"],
      [`http://0177.0.0.1:${p()}/`, "blocked_address"],
      [`http://0.0.0.0:${p()}/`, "blocked_address"],
      [`http://[::1]:${p()}/`, "blocked_address"],
      [`http://[::]:${p()}/`, "blocked_address"],
      [`http://[::ffff:127.0.0.1]:${p()}/`, "blocked_address"],
      [`http://[::ffff:7f00:1]:${p()}/`, "blocked_address"],
      [`http://[0:0:0:0:0:ffff:127.0.0.1]:${p()}/`, "blocked_address"],
      [`http://[64:ff9b::7f00:1]:${p()}/`, "blocked_address"],
      [`http://[2002:7f00:1::]:${p()}/`, "blocked_address"],
      [`http://[fe80::1]:${p()}/`, "blocked_address"],
      [`http://[fc00::1]:${p()}/`, "blocked_address"],
      [`http://[ff02::1]:${p()}/`, "blocked_address"],
      [`http://10.0.0.1:${p()}/`, "blocked_address"],
      [`http://172.16.0.1:${p()}/`, "blocked_address"],
      [`http://192.168.1.1:${p()}/`, "blocked_address"],
      [`http://169.254.169.254/latest/meta-data/`, "blocked_address"],
      [`http://100.64.0.1:${p()}/`, "blocked_address"],
      [`http://198.18.0.1:${p()}/`, "blocked_address"],
      [`http://224.0.0.1:${p()}/`, "blocked_address"],
      [`http://255.255.255.255:${p()}/`, "blocked_address"],
      [`http://loopback.test:${p()}/`, "blocked_address"], // DNS answers 127.0.0.1
      [`http://mixed.test:${p()}/`, "blocked_address"], // one public, one private answer
      [`http://metadata.test/`, "blocked_address"],
      [`http://mapped.test:${p()}/`, "blocked_address"],
      [`http://nowhere.test:${p()}/`, "dns_error"],
      [`http://user:pass@127.0.0.1:${p()}/`, "credentials_in_url"],
      [`http://user@example.com/`, "credentials_in_url"],
      ["file:///etc/passwd", "unsupported_scheme"],
      [`gopher://127.0.0.1:${p()}/_GET`, "unsupported_scheme"],
      [`ftp://127.0.0.1:${p()}/`, "unsupported_scheme"],
      ["javascript:alert(1)", "unsupported_scheme"],
      ["not a url", "invalid_url"],
    ];
    const canaryBefore = canaryConnections;
    const fetcher = strict();
    const results = await Promise.all(cases.map(([url]) => fetcher.fetch(url)));
    expect(results.map(failure)).toEqual(cases.map(([, reason]) => reason));
    expect(canaryConnections - canaryBefore).toBe(0);
  });

  it("re-checks every redirect hop: canary by IP, [::1], decimal, name; file: and data: targets", async () => {
    const canaryBefore = canaryConnections;
    const fetcher = permissive();
    expect(failure(await fetcher.fetch(`${base}/hello`))).toBe("ok:200"); // the start is reachable
    const cases: [string, string][] = [
      ["/to-canary", "blocked_address"],
      ["/to-canary-v6", "blocked_address"],
      ["/to-canary-decimal", "blocked_address"],
      ["/to-canary-name", "blocked_address"],
      ["/to-file", "unsupported_scheme"],
      ["/to-data", "unsupported_scheme"],
    ];
    for (const [path, reason] of cases)
      expect([path, failure(await fetcher.fetch(base + path))]).toEqual([path, reason]);
    expect(canaryConnections - canaryBefore).toBe(0);
  });

  it("resolves at connect time: a name that rebinds to loopback is refused on the next fetch", async () => {
    const canaryBefore = canaryConnections;
    let calls = 0;
    const rebinding = createSafeFetcher({
      allowAddress,
      resolve: async () => (++calls === 1 ? ["127.0.0.2"] : ["127.0.0.1"]),
    });
    expect(failure(await rebinding.fetch(`http://rebind.test:${allowedPort}/hello`))).toBe("ok:200");
    expect(failure(await rebinding.fetch(`http://rebind.test:${canaryPort}/hello`))).toBe("blocked_address");
    expect(calls).toBe(2);
    expect(canaryConnections - canaryBefore).toBe(0);
  });
});

describe("safe fetch: allowed destination", () => {
  it("returns status, headers and body bytes; non-2xx is still ok", async () => {
    const r = await permissive().fetch(`${base}/hello#fragment`);
    expect(r).toMatchObject({ ok: true, status: 200, url: `${base}/hello#fragment` });
    if (r.ok) expect(r.body.toString()).toBe("hello world");
    expect(failure(await permissive().fetch(`${base}/missing`))).toBe("ok:404");
  });

  it("connects by name with Host = the name and sends a User-Agent", async () => {
    const r = await permissive().fetch(`http://allowed.test:${allowedPort}/echo`);
    expect(r.ok && JSON.parse(r.body.toString())).toMatchObject({
      host: `allowed.test:${allowedPort}`,
      ua: "oabp-server/0.1.0",
    }); // AIP-1 §7.5.1: the full version
  });

  it("caps a streamed body: 20 MiB against 10 MiB → too_large, and stops reading", async () => {
    expect(failure(await permissive().fetch(`${base}/big`))).toBe("too_large");
    await bigStream.done; // the server sees the socket close and stops writing
    expect(bigStream.sent).toBeLessThan(20 * MiB);
    expect(failure(await permissive().fetch(`${base}/declared-big`))).toBe("too_large");
    expect(failure(await permissive().fetch(`${base}/hello`, { maxBytes: 5 }))).toBe("too_large");
  });

  it("caps total time: a silent or trickling server → timeout, never before timeoutMs", async () => {
    // Neither server ever finishes (the trickle writes a byte every 50 ms forever), so a "timeout"
    // answer is the proof of a total-time cap. The lower bound cannot flake on a busy machine; an
    // upper bound ("near timeoutMs") would, so none is asserted.
    for (const path of ["/hang", "/trickle"]) {
      const started = Date.now();
      expect(failure(await permissive({ timeoutMs: 300 }).fetch(base + path))).toBe("timeout");
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    }
  });

  it("follows at most maxRedirects, resolving relative Locations", async () => {
    expect(failure(await permissive().fetch(`${base}/chain/5`))).toBe("ok:200");
    expect(failure(await permissive().fetch(`${base}/chain/6`))).toBe("too_many_redirects");
    expect(failure(await permissive({ maxRedirects: 0 }).fetch(`${base}/chain/1`))).toBe("too_many_redirects");
    const r = await permissive().fetch(`${base}/relative`);
    expect(r.ok && [r.url, r.body.toString()]).toEqual([`${base}/hello`, "hello world"]);
  });

  it("307 repeats POST with its body; 302 and 303 turn into a body-less GET", async () => {
    const post = { method: "POST" as const, headers: { "content-type": "text/plain" }, body: "payload" };
    const echo = async (path: string) => {
      const r = await permissive().fetch(base + path, post);
      return r.ok ? JSON.parse(r.body.toString()) : r.reason;
    };
    expect(await echo("/307")).toMatchObject({ method: "POST", body: "payload", type: "text/plain" });
    expect(await echo("/303")).toMatchObject({ method: "GET", body: "", type: null });
    expect(await echo("/302")).toMatchObject({ method: "GET", body: "" });
  });

  it("drops Authorization on a redirect to another origin", async () => {
    const opts = { headers: { authorization: "Bearer secret" } };
    const same = await permissive().fetch(`${base}/echo`, opts);
    expect(same.ok && JSON.parse(same.body.toString()).auth).toBe("Bearer secret");
    const other = await permissive().fetch(`${base}/to-other-origin`, opts);
    expect(other.ok && JSON.parse(other.body.toString()).auth).toBeNull();
  });

  it("refuses an oversized request body before connecting", async () => {
    const r = await permissive({ maxRequestBytes: 10 }).fetch(`${base}/echo`, { method: "POST", body: "x".repeat(11) });
    expect(failure(r)).toBe("request_too_large");
  });
});

describe("safe fetch: data: and ipfs:", () => {
  const fetcher = createSafeFetcher({
    resolve: async () => {
      throw new Error("no network for data:");
    },
  });

  it("decodes base64 and percent-encoded data: URIs without any network", async () => {
    const b64 = await fetcher.fetch("data:text/plain;base64,aGVsbG8gd29ybGQ=");
    expect(b64.ok && [b64.body.toString(), b64.headers["content-type"]]).toEqual(["hello world", "text/plain"]);
    const pct = await fetcher.fetch("data:,hello%20world%FF#not-data");
    expect(pct.ok && [...pct.body]).toEqual([...Buffer.from("hello world"), 0xff]);
    expect(pct.ok && pct.headers["content-type"]).toBe("text/plain;charset=US-ASCII");
  });

  it("refuses malformed and oversized data: URIs", async () => {
    expect(failure(await fetcher.fetch("data:;base64,@@@@"))).toBe("invalid_data_uri");
    expect(failure(await fetcher.fetch("data:;base64,aGVsbG8=="))).toBe("invalid_data_uri");
    expect(failure(await fetcher.fetch("data:text/plain"))).toBe("invalid_data_uri");
    expect(failure(await fetcher.fetch("data:,0123456789", { maxBytes: 5 }))).toBe("too_large");
  });

  it("rewrites ipfs:// to the configured gateway, and refuses without one", async () => {
    expect(failure(await fetcher.fetch("ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi"))).toBe(
      "ipfs_gateway_not_configured",
    );
    const viaGateway = permissive({ ipfsGateway: `${base}/ipfs/` });
    const r = await viaGateway.fetch("ipfs://QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/readme?x=1");
    expect(r.ok && r.body.toString()).toBe("gateway:/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/readme?x=1");
    expect(failure(await viaGateway.fetch("ipfs://Qm1/..\\..\\hello"))).toBe("invalid_url");
    expect(failure(await viaGateway.fetch("ipfs://bad_cid!/x"))).toBe("invalid_url");
  });
});
