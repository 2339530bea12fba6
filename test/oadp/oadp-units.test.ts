import { describe, expect, it } from "vitest";
import { parseEnv } from "../../src/env";
import { checkAgentProtocolDocument } from "../../src/features/oadp/federation.verify";
import { checkHubUrl, normaliseSignalLayer } from "../../src/features/oadp/federation.url";
import { withOadpMeta } from "../../src/features/oadp/oadp.html";
import { createSafeFetcher } from "../../src/lib/safe-fetch";

// Pure pieces of the OADP hub: hub URL rules, the verification
// verdict, the HTML meta injection, and the new settings.

describe("checkHubUrl", () => {
  const fetcher = createSafeFetcher();
  it("normalises: lower-case host, no default port, no fragment, no trailing slash; keeps the query", () => {
    expect(checkHubUrl("https://EXAMPLE.org:443/API/?v=1#x", fetcher)).toEqual({
      ok: true,
      url: "https://example.org/API?v=1",
      domain: "example.org",
    });
    expect(checkHubUrl("https://example.org", fetcher)).toEqual({
      ok: true,
      url: "https://example.org",
      domain: "example.org",
    });
    expect(checkHubUrl("https://example.org:8443/a", fetcher)).toEqual({
      ok: true,
      url: "https://example.org:8443/a",
      domain: "example.org:8443",
    });
    expect(checkHubUrl("https://bücher.example/x", fetcher)).toMatchObject({ ok: false, reason: "blocked_address" }); // .example is special-use
    expect(checkHubUrl("https://bücher.de/x", fetcher)).toEqual({
      ok: true,
      url: "https://xn--bcher-kva.de/x",
      domain: "xn--bcher-kva.de",
    });
  });
  it("accepts public literal addresses, refuses private ones and odd names", () => {
    expect(checkHubUrl("https://8.8.8.8/hub", fetcher)).toMatchObject({ ok: true, domain: "8.8.8.8" });
    expect(checkHubUrl("https://[2001:4860:4860::8888]/", fetcher)).toMatchObject({ ok: true });
    expect(checkHubUrl("https://0x7f000001/", fetcher)).toMatchObject({ ok: false, reason: "blocked_address" });
    expect(checkHubUrl("https://-bad-.example.org/", fetcher)).toMatchObject({ ok: false, reason: "invalid_host" });
    expect(checkHubUrl("https://hub.onion/", fetcher)).toMatchObject({ ok: false, reason: "blocked_address" });
  });
  it("signal layers have one spelling each", () => {
    expect(["header", "http-header", "X-Agent-Protocol".toLowerCase()].map(normaliseSignalLayer)).toEqual([
      "header",
      "header",
      "header",
    ]);
    expect(["robots.txt", "dns", "html", "wellknown", "md"].map(normaliseSignalLayer)).toEqual([
      "robots-txt",
      "dns-txt",
      "html-meta",
      "well-known",
      "markdown",
    ]);
    expect(normaliseSignalLayer(undefined)).toBe("unknown");
    expect(normaliseSignalLayer("newsletter")).toBe("newsletter");
  });
});

describe("checkAgentProtocolDocument", () => {
  const ok = (body: string, status = 200) => ({
    ok: true as const,
    status,
    headers: {},
    body: Buffer.from(body),
    url: "",
  });
  it("needs oadp/1.x and a hub with a name and a URL", () => {
    expect(
      checkAgentProtocolDocument(
        ok(JSON.stringify({ protocol: "oadp/1.0", hub: { name: "H", url: "https://h.example.org" } })),
      ),
    ).toEqual({ ok: true, name: "H" });
    expect(
      checkAgentProtocolDocument(
        ok(JSON.stringify({ protocol: "oadp/1", hub: { name: "H", url: "https://h.example.org" } })),
      ),
    ).toEqual({ ok: true, name: "H" });
    expect(
      checkAgentProtocolDocument(ok(JSON.stringify({ protocol: "oadp/2.0", hub: { name: "H", url: "https://h" } }))),
    ).toEqual({ ok: false, reason: "not_oadp" });
    expect(
      checkAgentProtocolDocument(ok(JSON.stringify({ protocol: "oadp/1.0", hub: { name: "H", url: "nope" } }))),
    ).toEqual({ ok: false, reason: "missing_hub" });
    expect(
      checkAgentProtocolDocument(ok(JSON.stringify({ protocol: "oadp/1.0", hub: { name: "", url: "https://h" } }))),
    ).toEqual({ ok: false, reason: "missing_hub" });
    expect(checkAgentProtocolDocument(ok("null"))).toEqual({ ok: false, reason: "not_oadp" });
    expect(checkAgentProtocolDocument(ok("{"))).toEqual({ ok: false, reason: "not_json" });
    expect(checkAgentProtocolDocument(ok("{}", 301))).toEqual({ ok: false, reason: "http_301" });
    expect(checkAgentProtocolDocument({ ok: false, reason: "timeout" })).toEqual({ ok: false, reason: "timeout" });
  });
});

describe("withOadpMeta", () => {
  const tags = '<meta name="agent-protocol" content="oadp/1.0">';
  it("goes right after <head>, else after <html>, else first; never twice", () => {
    expect(withOadpMeta('<html lang="en"><head data-x="1"><title>t</title></head></html>', tags)).toBe(
      `<html lang="en"><head data-x="1">\n${tags}<title>t</title></head></html>`,
    );
    expect(withOadpMeta("<html><body>x</body></html>", tags)).toBe(`<html>\n${tags}<body>x</body></html>`);
    expect(withOadpMeta("<p>x</p>", tags)).toBe(`${tags}\n<p>x</p>`);
    expect(withOadpMeta("<header>no</header>", tags)).toBe(`${tags}\n<header>no</header>`);
    const tagged = "<head><META NAME='agent-protocol' CONTENT='oadp/1.0'></head>";
    expect(withOadpMeta(tagged, tags)).toBe(tagged);
  });
});

describe("settings", () => {
  it("defaults: ping on, federation and verification off, 24 h claims", () => {
    const c = parseEnv({});
    expect(c.oadp).toEqual({
      pingEnabled: true,
      federationEnabled: false,
      federationVerify: false,
      reportsPerHour: 20,
    });
    expect(c).toMatchObject({ claimTtlSeconds: 86_400, trustProxy: false });
  });
  it("refuses bad values by name", () => {
    expect(() => parseEnv({ OABP_OADP_FEDERATION_ENABLED: "yes" })).toThrow(/OABP_OADP_FEDERATION_ENABLED/);
    expect(() => parseEnv({ OABP_CLAIM_TTL_SECONDS: "10" })).toThrow(/OABP_CLAIM_TTL_SECONDS/);
  });
});
