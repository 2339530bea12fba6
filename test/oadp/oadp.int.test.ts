import * as ed from "@noble/ed25519";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { makeTestApp, PUBLIC_URL, type TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { keyringFrom, newKeyRecord } from "../../src/lib/receipt-keys";
import { expectError } from "../helpers/errors";
import { useTestApp } from "../helpers/suite-app";

// OADP hub: /.well-known/agent-protocol.json publishes the key; POST /ping
// answers a PONG signed over its JCS bytes. The PONG is verified here with nothing but the
// well-known document: its own canonicaliser call (the canonicalize package, not the server's
// wrapper) and @noble/ed25519 (the server signs with node:crypto).

const t = useTestApp();

const PONG_KEYS = [
  "pong",
  "protocol",
  "hub",
  "hub_url",
  "message",
  "register_url",
  "agents_online",
  "open_missions",
  "features",
  "timestamp",
  "nonce",
  "key_id",
  "signature",
].sort();

async function wellKnown(app: TestApp = t) {
  const r = await app.call("GET", "/.well-known/agent-protocol.json");
  expect(r.status).toBe(200);
  return r.body;
}

/** OADP "Verifying PONG Signatures", from the published document alone. */
async function verifyPong(
  pong: Record<string, unknown>,
  doc: { hub: { public_key: string; key_id: string } },
): Promise<boolean> {
  if (pong.key_id !== doc.hub.key_id) return false;
  const { signature, ...body } = pong;
  const bytes = new TextEncoder().encode(canonicalize(body)!);
  const sig = new Uint8Array(Buffer.from(String(signature), "base64url"));
  const key = new Uint8Array(Buffer.from(doc.hub.public_key, "base64url"));
  try {
    return await ed.verifyAsync(sig, bytes, key);
  } catch {
    return false;
  }
}

describe("/.well-known/agent-protocol.json", () => {
  it("names the hub, its registration, capabilities and the PONG signing key", async () => {
    const doc = await wellKnown();
    expect(doc).toMatchObject({
      protocol: "oadp/1.0",
      hub: {
        name: "OABP server",
        url: PUBLIC_URL,
        register: `${PUBLIC_URL}/auth/siwe`,
        key_id: t.deps.receiptKeys.active.keyId,
      },
      open_registration: true,
      signed_pongs: true,
      ping: `${PUBLIC_URL}/ping`,
      pong_signature: { alg: "ed25519", key_id: t.deps.receiptKeys.active.keyId, encoding: "base64url" },
      federation: { enabled: false },
    });
    expect(doc.capabilities).toEqual(expect.arrayContaining(["missions", "claims"]));
    expect(doc.public_key).toBe(doc.hub.public_key);
    expect(doc.hub.public_key).toBe(t.deps.receiptKeys.published[0]!.public_key);
    expect(doc.signing_keys).toEqual(t.deps.receiptKeys.published);
    expect(JSON.stringify(doc)).not.toContain("private");
  });
});

describe("POST /ping → signed PONG", () => {
  it("verifies with only the well-known key; any tampering fails", async () => {
    const doc = await wellKnown();
    const r = await t.call("POST", "/ping", { body: { ping: true, nonce: "n-1234" } });
    expect(r.status, r.text).toBe(200);
    const pong = r.body;
    expect(Object.keys(pong).sort()).toEqual(PONG_KEYS);
    expect(pong).toMatchObject({
      pong: true,
      protocol: "oadp/1.0",
      hub: "OABP server",
      register_url: `${PUBLIC_URL}/auth/siwe`,
      nonce: "n-1234",
      timestamp: t.clock.now().toISOString(),
    });
    expect(await verifyPong(pong, doc)).toBe(true);

    expect(await verifyPong({ ...pong, agents_online: pong.agents_online + 1 }, doc)).toBe(false);
    expect(await verifyPong({ ...pong, nonce: "n-9999" }, doc)).toBe(false);
    expect(await verifyPong({ ...pong, features: { ...pong.features, messaging: true } }, doc)).toBe(false);
    expect(await verifyPong({ ...pong, extra: 1 }, doc)).toBe(false);
    const sig = Buffer.from(pong.signature, "base64url");
    sig[0]! ^= 1;
    expect(await verifyPong({ ...pong, signature: sig.toString("base64url") }, doc)).toBe(false);
    // Another hub's key (or a key_id the document does not name) does not verify it.
    const other = {
      hub: {
        public_key: Buffer.from(await ed.getPublicKeyAsync(ed.utils.randomSecretKey())).toString("base64url"),
        key_id: doc.hub.key_id,
      },
    };
    expect(await verifyPong(pong, other)).toBe(false);
    expect(await verifyPong({ ...pong, key_id: "someone-else" }, doc)).toBe(false);
  });

  it.each([
    ["no body", undefined],
    ["anonymous tier", { ping: true }],
    ["minimal tier", { name: "scout-7", orchestrator: "openclaw", signal_layer: "well-known" }],
    [
      "full tier",
      {
        name: "scout-7",
        orchestrator: "openclaw",
        capabilities: ["research", "code"],
        version: "1.2.0",
        description: "a scanner",
        signal_layer: "header",
        unknown_field: { a: 1 },
      },
    ],
  ])("accepts %s, under / and /api", async (_name, body) => {
    const doc = await wellKnown();
    for (const path of ["/ping", "/api/ping"]) {
      const r = await t.call("POST", path, body === undefined ? {} : { body });
      expect(r.status, r.text).toBe(200);
      expect(r.body.nonce).toBeNull();
      expect(await verifyPong(r.body, doc)).toBe(true);
    }
  });

  it("an unauthenticated ping learns counts only — no address, name or profile of any agent", async () => {
    // Agents who are online right now, one with a profile.
    const a = await signIn(t);
    const b = await signIn(t);
    await t.call("PUT", `/agents/${a.address}`, { token: a.token, body: { display_name: "Secret Agent Alpha" } });
    await t.call("POST", `/agents/${b.address}/heartbeat`, { token: b.token });
    t.clock.advance(11_000); // past the counts cache

    const ping = { name: "Secret Agent Alpha", orchestrator: "openclaw", capabilities: ["x"], agent_id: a.address };
    const r = await t.call("POST", "/ping", { body: ping });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(PONG_KEYS);
    expect(r.body.agents_online).toBeGreaterThanOrEqual(2);
    for (const secret of [
      a.address,
      b.address,
      a.account.address,
      b.account.address,
      "Secret Agent Alpha",
      "openclaw",
    ]) {
      expect(r.text.toLowerCase()).not.toContain(secret.toLowerCase());
    }
    // The PONG depends on the ping only through its nonce: a different tier gets the same bytes.
    const bare = await t.call("POST", "/ping", { body: { ping: true } });
    expect(bare.text).toBe(r.text);
    // A signed-in caller is told nothing more about itself or anyone else.
    const authed = await t.call("POST", "/ping", { token: a.token, body: { ping: true } });
    expect(Object.keys(authed.body).sort()).toEqual(PONG_KEYS);
    expect(authed.text.toLowerCase()).not.toContain(a.address);
  });

  it("counts agents seen within the availability window and open missions", async () => {
    const app = await makeTestApp();
    try {
      const first = (await app.call("POST", "/ping")).body;
      expect(first).toMatchObject({ agents_online: 0, open_missions: 0 });
      await signIn(app);
      await signIn(app);
      // Cached for 10 s (by the clock), then fresh.
      expect((await app.call("POST", "/ping")).body.agents_online).toBe(0);
      app.clock.advance(10_000);
      expect((await app.call("POST", "/ping")).body.agents_online).toBe(2);
      app.clock.advance(181_000);
      expect((await app.call("POST", "/ping")).body.agents_online).toBe(0);
    } finally {
      await app.close();
    }
  });

  it("a bad nonce or body shape → 400; a non-JSON body → 415", async () => {
    expectError(await t.call("POST", "/ping", { body: { nonce: "has space" } }), 400, "INVALID_PARAMETER");
    expectError(await t.call("POST", "/ping", { body: { nonce: "x".repeat(129) } }), 400, "INVALID_PARAMETER");
    expectError(await t.call("POST", "/ping", { body: { capabilities: "all" } }), 400, "INVALID_PARAMETER");
    expectError(await t.call("POST", "/ping", { body: [1, 2] }), 400, "INVALID_PARAMETER");
    expectError(
      await t.call("POST", "/ping", { body: "ping", headers: { "content-type": "text/plain" } }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
  });

  it("OABP_OADP_PING_ENABLED=false: 503 ping_disabled, and the well-known says signed_pongs: false", async () => {
    const app = await makeTestApp({ OABP_OADP_PING_ENABLED: "false" });
    try {
      const r = await app.call("POST", "/ping", { body: { ping: true } });
      expectError(r, 503, "SERVICE_UNAVAILABLE");
      expect(r.body.details.reason).toBe("ping_disabled");
      const doc = await wellKnown(app);
      expect(doc.signed_pongs).toBe(false);
      expect(doc.ping).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});

describe("HTML meta, markdown and robots.txt signals", () => {
  it("GET / is an HTML page with the OADP meta tags for browsers and scanners", async () => {
    for (const accept of [undefined, "*/*", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"]) {
      const res = await t.app.request("/", { headers: accept ? { accept } : {} });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("x-agent-protocol")).toBe("oadp/1.0");
      const html = await res.text();
      expect(html).toContain('<meta name="agent-protocol" content="oadp/1.0">');
      expect(html).toContain(`<meta name="agent-hub" content="${PUBLIC_URL}">`);
      expect(html.match(/name="agent-protocol"/g)).toHaveLength(1);
    }
  });

  it("a JSON-only client still gets the JSON 404 listing the entry points at /", async () => {
    const r = await t.call("GET", "/", { headers: { accept: "application/json" } });
    expectError(r, 404, "NOT_FOUND");
    expect(r.body.details.entry_points.missions).toBe("/missions");
  });

  it("any other text/html response gets the tags injected into its head", async () => {
    const app = await makeTestApp();
    try {
      app.app.get("/test-page", (c) =>
        c.html("<!doctype html><html><HEAD><title>x</title></HEAD><body>hi</body></html>"),
      );
      app.app.get("/test-fragment", (c) => c.html("<p>bare</p>"));
      app.app.get("/test-tagged", (c) =>
        c.html('<html><head><meta name="agent-protocol" content="oadp/1.0"></head></html>'),
      );
      const page = await (await app.app.request("/test-page")).text();
      expect(page).toMatch(/^<!doctype html><html><HEAD>\n<meta name="agent-protocol" content="oadp\/1\.0">/);
      expect(page).toContain("<title>x</title></HEAD><body>hi</body>");
      expect(await (await app.app.request("/test-fragment")).text()).toMatch(
        /^<meta name="agent-protocol" content="oadp\/1\.0">[\s\S]*<p>bare<\/p>$/,
      );
      expect((await (await app.app.request("/test-tagged")).text()).match(/agent-protocol/g)).toHaveLength(1);
      // JSON is untouched.
      expect((await app.call("GET", "/health")).text).toBe('{"status":"ok"}');
    } finally {
      await app.close();
    }
  });

  it("llms.txt carries the OADP markdown comment; robots.txt the OADP lines", async () => {
    expect((await t.call("GET", "/llms.txt")).text).toContain(
      `<!-- OADP:1.0 hub=${PUBLIC_URL} reg=${PUBLIC_URL}/auth/siwe -->`,
    );
    const robots = (await t.call("GET", "/robots.txt")).text.split("\n");
    expect(robots).toEqual(expect.arrayContaining(["# OADP/1.0", `# Agent-Hub: ${PUBLIC_URL}`]));
  });
});

describe("rotation", () => {
  it("after a key rotation the PONG names the new key, which the document publishes (the old one stays listed)", async () => {
    const app = await makeTestApp();
    try {
      const old = app.deps.receiptKeys.published[0]!;
      const fresh = newKeyRecord(app.clock.now(), [old.key_id]);
      app.deps.receiptKeys = keyringFrom([fresh, { ...old, valid_until: app.clock.now().toISOString() }]);
      const doc = await wellKnown(app);
      expect(doc.hub).toMatchObject({ key_id: fresh.key_id, public_key: fresh.public_key });
      expect(doc.signing_keys.map((k: { key_id: string }) => k.key_id)).toEqual([fresh.key_id, old.key_id]);
      const r = await app.call("POST", "/ping", { body: { nonce: "rot" } });
      expect(r.body.key_id).toBe(fresh.key_id);
      expect(await verifyPong(r.body, doc)).toBe(true);
      expect(await verifyPong(r.body, { hub: { public_key: old.public_key, key_id: fresh.key_id } })).toBe(false);
    } finally {
      await app.close();
    }
  });
});
