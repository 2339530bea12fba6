import { describe, expect, it } from "vitest";
import { parseEnv } from "../../src/env";
import { PUBLIC_URL } from "../helpers/app";
import { useTestApp } from "../helpers/suite-app";

// Small discovery documents: AIP-1 §9.1 (RFC 9728), RFC 9116, llms.txt, robots.txt, OADP.

const t = useTestApp({ OABP_SECURITY_CONTACT: "mailto:sec@oabp.test, https://oabp.test/security" });

const get = (path: string, init?: RequestInit) => t.app.request(path, init);

describe("oauth-protected-resource (§9.1, RFC 9728)", () => {
  it.each([
    ["/.well-known/oauth-protected-resource", PUBLIC_URL],
    ["/.well-known/oauth-protected-resource/mcp", `${PUBLIC_URL}/mcp`], // RFC 9728 §3.3: resource = the URL it was derived from
    ["/.well-known/oauth-protected-resource/mcp/sse", PUBLIC_URL],
  ])("%s answers authorization_servers: [] for %s", async (path, resource) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const doc = await res.json();
    expect(doc).toEqual({
      resource,
      resource_name: "OABP server",
      authorization_servers: [],
      bearer_methods_supported: [],
      scopes_supported: [],
      resource_documentation: `${PUBLIC_URL}/llms.txt`,
    });
  });

  it("is byte-identical at the root and below it, and HEAD works", async () => {
    const root = await (await get("/.well-known/oauth-protected-resource")).text();
    expect(await (await get("/.well-known/oauth-protected-resource/mcp/sse")).text()).toBe(root);
    const head = await get("/.well-known/oauth-protected-resource/mcp", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("is not a prefix match on unrelated names", async () => {
    expect((await get("/.well-known/oauth-protected-resourcex")).status).toBe(404);
  });
});

describe("security.txt (RFC 9116)", () => {
  it("has Contact, Expires in the future (< 1 year), Canonical and Preferred-Languages", async () => {
    const res = await get("/.well-known/security.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await res.text();
    const fields = text
      .split("\n")
      .filter((l) => l && !l.startsWith("#"))
      .map((l) => {
        const i = l.indexOf(": ");
        return [l.slice(0, i), l.slice(i + 2)] as const;
      });
    const values = (name: string) => fields.filter(([k]) => k === name).map(([, v]) => v);
    expect(values("Contact")).toEqual(["mailto:sec@oabp.test", "https://oabp.test/security"]);
    expect(values("Canonical")).toEqual([`${PUBLIC_URL}/.well-known/security.txt`]);
    expect(values("Preferred-Languages")).toEqual(["en"]);
    const expires = values("Expires");
    expect(expires).toHaveLength(1);
    expect(expires[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const at = Date.parse(expires[0]!);
    const now = t.clock.now().getTime();
    expect(at).toBeGreaterThan(now);
    expect(at).toBeLessThan(now + 365 * 86_400_000);
  });

  it("moves Expires with the clock", async () => {
    const before = await (await get("/.well-known/security.txt")).text();
    t.clock.advance(2 * 86_400_000);
    const after = await (await get("/.well-known/security.txt")).text();
    const exp = (s: string) => Date.parse(/^Expires: (.+)$/m.exec(s)![1]!);
    expect(exp(after) - exp(before)).toBe(2 * 86_400_000);
    expect(exp(after)).toBeGreaterThan(t.clock.now().getTime());
  });

  it("redirects the legacy /security.txt", async () => {
    const res = await get("/security.txt");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/.well-known/security.txt");
  });

  it("defaults Contact to mailto:security@<public host> and rejects a bad contact", () => {
    expect(parseEnv({ OABP_PUBLIC_URL: "https://bounties.example.org" }).securityContact).toEqual([
      "mailto:security@bounties.example.org",
    ]);
    expect(() => parseEnv({ OABP_SECURITY_CONTACT: "http://insecure.example" })).toThrow(/OABP_SECURITY_CONTACT/);
    expect(() => parseEnv({ OABP_SECURITY_CONTACT: "mailto:a@b\nExpires: never" })).toThrow(/OABP_SECURITY_CONTACT/);
  });
});

describe("robots.txt, llms.txt, agent-protocol.json (OADP)", () => {
  it("robots.txt carries the OADP lines and the sitemap", async () => {
    const res = await get("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const lines = (await res.text()).split("\n");
    expect(lines).toContain("# OADP/1.0");
    expect(lines).toContain(`# Agent-Hub: ${PUBLIC_URL}`);
    expect(lines).toContain("User-agent: *");
    expect(lines).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });

  it("llms.txt describes sign-in, listing, submitting and checking the outcome", async () => {
    const res = await get("/llms.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await res.text();
    expect(text.startsWith("# OABP server\n\n> ")).toBe(true);
    for (const s of [
      "/auth/nonce",
      "/auth/siwe",
      "domain `oabp.test`",
      "GET http://oabp.test/missions",
      "/missions/{id}/submissions",
      "Idempotency-Key",
      "/missions/{id}/submissions/{sid}",
      "/openapi.json",
    ]) {
      expect(text).toContain(s);
    }
  });

  it("agent-protocol.json is the OADP hub self-description", async () => {
    const res = await get("/.well-known/agent-protocol.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const doc = (await res.json()) as any;
    expect(doc.protocol).toBe("oadp/1.0");
    expect(doc.hub).toMatchObject({ name: "OABP server", url: PUBLIC_URL, register: `${PUBLIC_URL}/auth/siwe` });
    expect(Array.isArray(doc.capabilities)).toBe(true);
    expect(doc.capabilities).toContain("missions");
    expect(doc.open_registration).toBe(true);
    expect(doc.signed_pongs).toBe(true);
  });
});

describe("ERC-8004 agent registration file (docs/erc-8004.md)", () => {
  it("is a registration-v1 file naming the MCP, A2A and web services, each served here", async () => {
    const res = await get("/.well-known/agent-registration.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const doc = (await res.json()) as any;
    expect(doc).toMatchObject({
      type: "https://eips.ethereum.org/EIPS/eip-8004#registration-v1",
      name: expect.any(String),
      description: expect.any(String),
      active: true,
      x402Support: false,
      registrations: [],
    });
    expect(doc.services).toEqual([
      { name: "web", endpoint: `${PUBLIC_URL}/` },
      { name: "MCP", endpoint: `${PUBLIC_URL}/mcp`, version: "2025-11-25" },
      { name: "A2A", endpoint: `${PUBLIC_URL}/.well-known/agent-card.json`, version: "1.0" },
    ]);
    // Each service answers at its path on this server.
    for (const s of doc.services) {
      const path = new URL(s.endpoint).pathname;
      const r = s.name === "MCP" ? await get(path, { method: "GET" }) : await get(path);
      expect(r.status, s.name).toBe(200);
    }
  });
});

describe("X-Agent-Protocol: oadp/1.0 on every response", () => {
  it.each([
    ["a 200", "GET", "/health", 200],
    ["a 200 well-known", "GET", "/robots.txt", 200],
    ["a 404", "GET", "/no/such/route", 404],
    ["a 400", "GET", "/missions?limit=banana", 400],
    ["a 401 from middleware", "GET", "/missions", 401, { authorization: "Basic x" }],
    // POST /disputes: anonymous callers may file (bad_spec), so its body is read before any refusal.
    ["a 415", "POST", "/disputes", 415, { "content-type": "text/plain" }, "x"],
    [
      "a preflight",
      "OPTIONS",
      "/missions",
      204,
      { origin: "https://a.example", "access-control-request-method": "POST" },
    ],
  ] as const)("on %s", async (_name, method, path, status, headers?: Record<string, string>, body?: string) => {
    const res = await get(path, { method, headers, body });
    expect(res.status).toBe(status);
    expect(res.headers.get("x-agent-protocol")).toBe("oadp/1.0");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("is exposed to browsers through CORS", async () => {
    const res = await get("/health");
    expect(res.headers.get("access-control-expose-headers")).toContain("X-Agent-Protocol");
  });
});
