import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { oadpDomains } from "../../src/db/schema/index";
import { verifyReportedHubs } from "../../src/features/oadp/federation.verify";
import {
  createSafeFetcher,
  type SafeFetcher,
  type SafeFetchOptions,
  type SafeFetchResult,
} from "../../src/lib/safe-fetch";
import { makeTestApp, type TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { OADP_HUB_TTL_HOURS } from "../../src/features/oadp/federation.service";

// OADP federation: POST /federation/report → {accepted, known} with dedup;
// private or malformed hub URLs refused; rate limits per caller; reported URLs fetched only when
// the operator enables verification, then never more often than the per-domain scan interval.
// The verification job is driven with a recording fetcher (the SSRF-safe fetcher itself is tested
// in safe-fetch.test.ts) and the manual clock.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A fetcher that records every URL and answers from a table (default: unreachable). */
function recordingFetcher(real: SafeFetcher, answers: Record<string, SafeFetchResult> = {}) {
  const calls: string[] = [];
  const fetcher: SafeFetcher = {
    checkAddress: real.checkAddress,
    async fetch(url: string, _opts?: SafeFetchOptions) {
      calls.push(url);
      return answers[url] ?? { ok: false, reason: "connect_error" };
    },
  };
  return { fetcher, calls, answers };
}

const json = (v: unknown, status = 200): SafeFetchResult => ({
  ok: true,
  status,
  headers: { "content-type": "application/json" },
  body: Buffer.from(JSON.stringify(v)),
  url: "",
});
const OADP_DOC = {
  protocol: "oadp/1.0",
  hub: {
    name: "Good Hub",
    url: "https://good-hub.example.org/api",
    register: "https://good-hub.example.org/api/register",
  },
};

let t: TestApp;
let rec: ReturnType<typeof recordingFetcher>;
beforeAll(async () => {
  t = await makeTestApp({ OABP_OADP_FEDERATION_ENABLED: "true", OABP_OADP_REPORTS_PER_HOUR: "1000" });
  rec = recordingFetcher(t.deps.fetcher);
  t.deps.fetcher = rec.fetcher;
});
afterAll(async () => t?.close());

const report = (hub_url: unknown, extra: Record<string, unknown> = {}, app: TestApp = t) =>
  app.call("POST", "/federation/report", { body: { hub_url, signal_layer: "header", ...extra } });
const hubs = async (query = "", app: TestApp = t) => (await app.call("GET", `/federation/hubs${query}`)).body;

describe("POST /federation/report", () => {
  it("a new hub → {accepted: true, known: false}; the same hub again, however spelled → known: true", async () => {
    const first = await report("https://Hub-One.example.org/api/");
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ accepted: true, known: false, hub_url: "https://hub-one.example.org/api" });
    for (const same of [
      "https://hub-one.example.org/api",
      "https://HUB-ONE.example.org:443/api#frag",
      "https://hub-one.example.org/api//",
    ]) {
      const r = await t.call("POST", "/api/federation/report", { body: { hub_url: same, signal_layer: "well-known" } });
      expect(r.body, same).toEqual({ accepted: true, known: true, hub_url: "https://hub-one.example.org/api" });
    }
    // A different path or port is a different hub.
    expect((await report("https://hub-one.example.org/v2")).body.known).toBe(false);
    expect((await report("https://hub-one.example.org:8443/api")).body.known).toBe(false);

    const listed = (await hubs()).hubs.filter((h: { domain: string }) => h.domain.startsWith("hub-one.example.org"));
    const one = listed.find((h: { hub_url: string }) => h.hub_url === "https://hub-one.example.org/api");
    expect(one).toMatchObject({
      domain: "hub-one.example.org",
      signal_layer: "header",
      report_count: 4,
      verified: false,
      status: "unverified",
      hub_name: null,
      last_checked_at: null,
    });
    expect(listed).toHaveLength(3);
  });

  it("signal layers are normalised; signal_layer is optional", async () => {
    expect((await report("https://layers-a.example.org", { signal_layer: "robots.txt" })).status).toBe(200);
    expect((await report("https://layers-b.example.org", { signal_layer: undefined })).status).toBe(200);
    const all = (await hubs()).hubs;
    expect(all.find((h: { hub_url: string }) => h.hub_url === "https://layers-a.example.org").signal_layer).toBe(
      "robots-txt",
    );
    expect(all.find((h: { hub_url: string }) => h.hub_url === "https://layers-b.example.org").signal_layer).toBe(
      "unknown",
    );
  });

  it.each([
    ["plain http", "http://hub.example.org/api", "https_required"],
    ["another scheme", "ftp://hub.example.org/", "https_required"],
    ["not a URL", "not a url", "invalid_url"],
    ["a relative path", "/api", "invalid_url"],
    ["credentials", "https://user:pw@hub.example.org/", "credentials_in_url"],
    ["loopback", "https://127.0.0.1/api", "blocked_address"],
    ["loopback, short form", "https://127.1/", "blocked_address"],
    ["RFC 1918", "https://10.1.2.3/", "blocked_address"],
    ["RFC 1918 192.168", "https://192.168.0.10:8443/api", "blocked_address"],
    ["link-local metadata", "https://169.254.169.254/latest/meta-data", "blocked_address"],
    ["CGNAT", "https://100.64.0.1/", "blocked_address"],
    ["IPv6 loopback", "https://[::1]/", "blocked_address"],
    ["IPv6 ULA", "https://[fd00::1]/", "blocked_address"],
    ["IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/", "blocked_address"],
    ["localhost", "https://localhost/", "blocked_address"],
    ["a name under localhost", "https://hub.localhost/", "blocked_address"],
    ["mDNS .local", "https://printer.local/", "blocked_address"],
    [".internal", "https://hub.corp.internal/", "blocked_address"],
    ["home.arpa", "https://nas.home.arpa/", "blocked_address"],
    ["RFC 6761 .test", "https://hub.test/", "blocked_address"],
    ["a single label", "https://intranet/", "invalid_host"],
    ["a numeric last label", "https://1.2.3.4.5/", "invalid_url"],
    ["an overlong URL", `https://hub.example.org/${"a".repeat(2100)}`, "url_too_long"],
  ])("refuses %s → 422 (%s)", async (_name, url, reason) => {
    const r = await report(url);
    expectError(r, 422, "UNPROCESSABLE");
    expect(r.body.details).toMatchObject({ field: "hub_url", reason });
  });

  it("shape errors → 400; nothing refused was stored", async () => {
    expectError(
      await t.call("POST", "/federation/report", { body: { signal_layer: "header" } }),
      400,
      "INVALID_PARAMETER",
    );
    expectError(await report(42), 400, "INVALID_PARAMETER");
    expectError(
      await report("https://ok.example.org", { signal_layer: "no spaces allowed" }),
      400,
      "INVALID_PARAMETER",
    );
    const urls = (await hubs("?limit=100")).hubs.map((h: { hub_url: string }) => h.hub_url).join(" ");
    for (const bad of ["127.0.0.1", "10.1.2.3", "localhost", "169.254", "intranet", "[::1]"])
      expect(urls).not.toContain(bad);
  });

  it("rate-limits per caller (address, else IP) with Retry-After, and forgets after the hour", async () => {
    const app = await makeTestApp({
      OABP_OADP_FEDERATION_ENABLED: "true",
      OABP_OADP_REPORTS_PER_HOUR: "3",
      OABP_SESSION_TTL_SECONDS: "86400",
    });
    try {
      const fromIp = (ip: string, n: number) =>
        app.app.request(
          "/federation/report",
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              hub_url: `https://rl-${ip.replace(/\./g, "-")}-${n}.example.org`,
              signal_layer: "header",
            }),
          },
          { incoming: { socket: { remoteAddress: ip } } },
        );
      for (let n = 0; n < 3; n++) expect((await fromIp("203.0.113.7", n)).status).toBe(200);
      const limited = await fromIp("203.0.113.7", 3);
      expect(limited.status).toBe(429);
      // A token bucket (3 per hour): one token is back after 1200 s.
      expect(limited.headers.get("retry-after")).toBe("1200");
      expect(await limited.json()).toMatchObject({ error: "RATE_LIMITED", details: { retry_after_seconds: 1200 } });
      // Another address has its own budget; so has a signed-in agent, whatever its IP.
      expect((await fromIp("198.51.100.9", 0)).status).toBe(200);
      const a = await signIn(app);
      for (let n = 0; n < 3; n++) {
        const r = await app.call("POST", "/federation/report", {
          token: a.token,
          body: { hub_url: `https://agent-${n}.example.org` },
        });
        expect(r.status, r.text).toBe(200);
      }
      expectError(
        await app.call("POST", "/federation/report", {
          token: a.token,
          body: { hub_url: "https://agent-4.example.org" },
        }),
        429,
        "RATE_LIMITED",
      );
      // The bucket is full again after an hour.
      app.clock.advance(HOUR);
      expect((await fromIp("203.0.113.7", 4)).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("disabled by default: every federation route answers 503 federation_disabled", async () => {
    const app = await makeTestApp();
    try {
      for (const r of [await report("https://x.example.org", {}, app), await app.call("GET", "/federation/hubs")]) {
        expectError(r, 503, "SERVICE_UNAVAILABLE");
        expect(r.body.details.reason).toBe("federation_disabled");
      }
      expect((await app.call("GET", "/.well-known/agent-protocol.json")).body.federation).toEqual({ enabled: false });
    } finally {
      await app.close();
    }
  });
});

describe("verification (the job, behind OABP_OADP_FEDERATION_VERIFY)", () => {
  it("without verification, reported URLs are never fetched", async () => {
    await report("https://never-fetched.example.org/api");
    t.clock.advance(10 * HOUR);
    expect(await verifyReportedHubs(t.deps)).toBe(0);
    expect(rec.calls).toEqual([]);
    expect((await hubs()).verification_enabled).toBe(false);
  });

  it("with it: fetches the domain's agent-protocol.json through deps.fetcher, sets verified, honours the scan interval and the hub TTL", async () => {
    const app = await makeTestApp({
      OABP_OADP_FEDERATION_ENABLED: "true",
      OABP_OADP_FEDERATION_VERIFY: "true",
    });
    const r = recordingFetcher(app.deps.fetcher, {
      "https://good-hub.example.org/.well-known/agent-protocol.json": json(OADP_DOC),
    });
    app.deps.fetcher = r.fetcher;
    const verify = () => verifyReportedHubs(app.deps);
    const hub = async (url: string) => (await hubs("", app)).hubs.find((h: { hub_url: string }) => h.hub_url === url);
    try {
      // Nothing is fetched in the request.
      expect((await report("https://good-hub.example.org/api", {}, app)).body.known).toBe(false);
      expect((await report("https://good-hub.example.org/other", {}, app)).body.known).toBe(false);
      expect((await report("https://dead-hub.example.org", {}, app)).body.known).toBe(false);
      expect(r.calls).toEqual([]);

      expect(await verify()).toBe(2); // one fetch per domain, not per hub
      expect(r.calls.sort()).toEqual([
        "https://dead-hub.example.org/.well-known/agent-protocol.json",
        "https://good-hub.example.org/.well-known/agent-protocol.json",
      ]);
      expect(await hub("https://good-hub.example.org/api")).toMatchObject({
        verified: true,
        status: "verified",
        hub_name: "Good Hub",
        verified_at: app.clock.now().toISOString(),
        last_checked_at: app.clock.now().toISOString(),
      });
      expect(await hub("https://good-hub.example.org/other")).toMatchObject({ verified: true });
      expect(await hub("https://dead-hub.example.org")).toMatchObject({ verified: false, status: "unverified" });
      expect((await hubs("?verified=true", app)).hubs.map((h: { hub_url: string }) => h.hub_url).sort()).toEqual([
        "https://good-hub.example.org/api",
        "https://good-hub.example.org/other",
      ]);
      expect((await hubs("?verified=false", app)).hubs.map((h: { hub_url: string }) => h.hub_url)).toEqual([
        "https://dead-hub.example.org",
      ]);

      // Within the scan interval nothing is fetched again, however often it is reported or the job runs.
      r.calls.length = 0;
      for (let i = 0; i < 5; i++) {
        await report("https://dead-hub.example.org", {}, app);
        app.clock.advance(10 * MINUTE);
        await verify();
      }
      expect(r.calls).toEqual([]);
      // The failing domain is retried after the interval, then backs off (2 h, 4 h …).
      app.clock.advance(10 * MINUTE);
      await verify();
      expect(r.calls).toEqual(["https://dead-hub.example.org/.well-known/agent-protocol.json"]);
      app.clock.advance(HOUR + MINUTE);
      await verify();
      expect(r.calls).toHaveLength(1);
      app.clock.advance(HOUR);
      await verify();
      expect(r.calls).toHaveLength(2);

      // The hub TTL (OADP_HUB_TTL_HOURS): the verified domain is re-fetched; unreachable now → stale, not verified.
      r.calls.length = 0;
      delete r.answers["https://good-hub.example.org/.well-known/agent-protocol.json"];
      app.clock.set(
        new Date(Date.parse((await hub("https://good-hub.example.org/api")).verified_at) + OADP_HUB_TTL_HOURS * HOUR),
      );
      expect(await hub("https://good-hub.example.org/api")).toMatchObject({ verified: false, status: "stale" }); // lapsed before re-check
      await verify();
      expect(r.calls).toContain("https://good-hub.example.org/.well-known/agent-protocol.json");
      expect(await hub("https://good-hub.example.org/api")).toMatchObject({ verified: false, status: "stale" });
      // It comes back: verified again at the next allowed scan.
      r.answers["https://good-hub.example.org/.well-known/agent-protocol.json"] = json(OADP_DOC);
      app.clock.advance(HOUR);
      await verify();
      expect(await hub("https://good-hub.example.org/api")).toMatchObject({ verified: true, status: "verified" });
    } finally {
      await app.close();
    }
  });

  it("a document that is not OADP (or not JSON, or a 404) does not verify", async () => {
    const app = await makeTestApp({ OABP_OADP_FEDERATION_ENABLED: "true", OABP_OADP_FEDERATION_VERIFY: "true" });
    const doc = (host: string) => `https://${host}/.well-known/agent-protocol.json`;
    const r = recordingFetcher(app.deps.fetcher, {
      [doc("not-oadp.example.org")]: json({ protocol: "something/2", hub: { name: "x", url: "https://x" } }),
      [doc("no-hub.example.org")]: json({ protocol: "oadp/1.0" }),
      [doc("html.example.org")]: { ok: true, status: 200, headers: {}, body: Buffer.from("<html></html>"), url: "" },
      [doc("missing.example.org")]: json({ error: "nope" }, 404),
    });
    app.deps.fetcher = r.fetcher;
    try {
      for (const host of ["not-oadp", "no-hub", "html", "missing"])
        await report(`https://${host}.example.org`, {}, app);
      expect(await verifyReportedHubs(app.deps)).toBe(4);
      const list = (await hubs("", app)).hubs;
      expect(list.every((h: { verified: boolean }) => !h.verified)).toBe(true);
      expect(list).toHaveLength(4);
    } finally {
      await app.close();
    }
  });
});

describe("verification goes through the SSRF-safe fetcher", () => {
  it("a reported public name that resolves to a private address is refused by the fetcher at connect time (blocked_address)", async () => {
    const app = await makeTestApp({ OABP_OADP_FEDERATION_ENABLED: "true", OABP_OADP_FEDERATION_VERIFY: "true" });
    // The production address policy, with DNS answering a loopback address for the name.
    app.deps.fetcher = createSafeFetcher({ timeoutMs: 2000, resolve: async () => ["127.0.0.1"] });
    try {
      expect((await report("https://rebinding.example.org/api", {}, app)).status).toBe(200);
      expect(await verifyReportedHubs(app.deps)).toBe(1);
      const [row] = await app.deps.database.db
        .select()
        .from(oadpDomains)
        .where(eq(oadpDomains.domain, "rebinding.example.org"));
      expect(row).toMatchObject({ status: "unverified", lastError: "blocked_address", failures: 1 });
      expect((await hubs("", app)).hubs[0]).toMatchObject({
        verified: false,
        last_checked_at: app.clock.now().toISOString(),
      });
    } finally {
      await app.close();
    }
  });
});

describe("GET /federation/hubs", () => {
  it("pages newest first with a cursor; a bad cursor is 400", async () => {
    const app = await makeTestApp({ OABP_OADP_FEDERATION_ENABLED: "true" });
    try {
      for (let i = 0; i < 5; i++) {
        await report(`https://page-${i}.example.org`, {}, app);
        app.clock.advance(1000);
      }
      const p1 = await hubs("?limit=2", app);
      expect(p1.hubs.map((h: { domain: string }) => h.domain)).toEqual(["page-4.example.org", "page-3.example.org"]);
      const p2 = await hubs(`?limit=2&cursor=${p1.next_cursor}`, app);
      const p3 = await hubs(`?limit=2&cursor=${p2.next_cursor}`, app);
      expect([...p2.hubs, ...p3.hubs].map((h: { domain: string }) => h.domain)).toEqual([
        "page-2.example.org",
        "page-1.example.org",
        "page-0.example.org",
      ]);
      expect(p3.next_cursor).toBeNull();
      expectError(await app.call("GET", "/federation/hubs?cursor=garbage"), 400, "INVALID_PARAMETER");
    } finally {
      await app.close();
    }
  });
});
