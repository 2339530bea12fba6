import { describe, expect, it } from "vitest";
import { encodeAbiParameters, keccak256, parseAbiParameters, recoverMessageAddress, type Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { type TestApp } from "../helpers/app";
import { newAccount, openMission, siweMessageFor, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { useTestApp } from "../helpers/suite-app";

// AIP-1 §1 / §1.4 and docs/design.md "Identity": SIWE sessions, registry attestations, and the
// anonymous-by-default rule with its exact 403 body.

const REGISTRY = newAccount();
const OTHER_REGISTRY = newAccount();
const ANON_BODY = '{"error":"ANONYMOUS_SUBMISSION_REJECTED"}';
const HOUR = 3_600_000;

const t = useTestApp({
  OABP_REGISTRIES: JSON.stringify([
    { domain: "registry.example", signer: REGISTRY.address },
    { domain: "other.example", signer: OTHER_REGISTRY.address },
  ]),
});

let keySeq = 0;
const freshKey = () => `${crypto.randomUUID()}-${++keySeq}`;

interface AttestFields {
  api_key: string;
  evm_address: string;
  issued_at: string;
  registry_domain: string;
  ttl_seconds?: number;
}

/** An AIP-1 §1.4 attestation: ECDSA over keccak256(abi.encode(api_key, evm_address, issued_at)), raw or EIP-191. */
async function attestation(signer: PrivateKeyAccount, f: AttestFields, mode: "raw" | "eip191" = "raw") {
  const hash = keccak256(
    encodeAbiParameters(parseAbiParameters("string, address, string"), [f.api_key, f.evm_address as Hex, f.issued_at]),
  );
  const signature = mode === "raw" ? await signer.sign({ hash }) : await signer.signMessage({ message: { raw: hash } });
  return { ...f, signature };
}

async function bind(signer: PrivateKeyAccount, over: Partial<AttestFields> = {}, mode: "raw" | "eip191" = "raw") {
  const f: AttestFields = {
    api_key: freshKey(),
    evm_address: newAccount().address,
    issued_at: t.clock.now().toISOString(),
    registry_domain: signer === OTHER_REGISTRY ? "other.example" : "registry.example",
    ...over,
  };
  const res = await t.call("POST", "/attestations/registry", { body: await attestation(signer, f, mode) });
  return { res, f };
}

const submit = (
  missionId: string,
  body: unknown,
  o: { apiKey?: string; header?: boolean; token?: string; path?: string } = {},
) =>
  t.call(
    "POST",
    `${o.path ?? `/missions/${missionId}/submissions`}${o.apiKey && !o.header ? `?api_key=${encodeURIComponent(o.apiKey)}` : ""}`,
    {
      body,
      token: o.token,
      headers: o.apiKey && o.header ? { "x-api-key": o.apiKey } : {},
    },
  );

function expectAnonymous(r: Awaited<ReturnType<TestApp["call"]>>) {
  expect(r.status).toBe(403);
  expect(r.body).toEqual({ error: "ANONYMOUS_SUBMISSION_REJECTED" });
  expect(r.text).toBe(ANON_BODY);
}

describe("SIWE (EIP-4361)", () => {
  it("signs in: token, Bearer, lowercase agent_id, expires in 24 h; the token authenticates", async () => {
    const account = newAccount();
    const message = await siweMessageFor(t, account);
    const r = await t.call("POST", "/auth/siwe", {
      body: { message, signature: await account.signMessage({ message }) },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({
      token: expect.any(String),
      token_type: "Bearer",
      agent_id: account.address.toLowerCase(),
      expires_at: new Date(t.clock.now().getTime() + 24 * HOUR).toISOString(),
    });
    const put = await t.call("PUT", `/agents/${account.address}`, {
      token: r.body.token,
      body: { display_name: "siwe" },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.display_name).toBe("siwe");
  });

  it("a nonce is single use: the same message + signature again → 401", async () => {
    const account = newAccount();
    const message = await siweMessageFor(t, account);
    const body = { message, signature: await account.signMessage({ message }) };
    expect((await t.call("POST", "/auth/siwe", { body })).status).toBe(200);
    const again = await t.call("POST", "/auth/siwe", { body });
    expectError(again, 401, "UNAUTHORIZED");
    expect(again.body.details.reason).toBe("invalid_nonce");
  });

  it.each([
    ["wrong domain", { domain: "evil.example" }, "wrong_domain"],
    ["chain id 1 (only 8453 is accepted)", { chainId: 1 }, "wrong_chain"],
    [
      "expirationTime in the past",
      { issuedAt: new Date("2026-01-01T00:00:00Z"), expirationTime: new Date("2026-01-02T00:00:00Z") },
      "expired",
    ],
    ["notBefore in the future", { notBefore: new Date("2030-01-01T00:00:00Z") }, "expired"],
    ["a nonce this server never issued", { nonce: "neverissued12345" }, "invalid_nonce"],
    // The message's `uri` must be this server (OABP_PUBLIC_URL's origin).
    ["uri on another origin", { uri: "https://evil.example/login" }, "wrong_uri"],
    ["uri on this host but another scheme", { uri: "https://oabp.test/" }, "wrong_uri"],
  ])("%s → 401", async (_n, over, reason) => {
    const account = newAccount();
    const message = await siweMessageFor(t, account, over);
    const r = await t.call("POST", "/auth/siwe", {
      body: { message, signature: await account.signMessage({ message }) },
    });
    expectError(r, 401, "UNAUTHORIZED");
    expect(r.body.details.reason).toBe(reason);
  });

  it("nonces come from the CSPRNG: 24 alphanumeric characters (≈ 143 bits), never a shift of the previous one", async () => {
    const nonces: string[] = [];
    for (let i = 0; i < 50; i++) nonces.push((await t.call("POST", "/auth/nonce")).body.nonce);
    for (const n of nonces) expect(n).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(new Set(nonces).size).toBe(50);
    // viem's generateSiweNonce made each nonce the previous one shifted by one character.
    for (let i = 1; i < nonces.length; i++) expect(nonces[i]!.slice(0, -1)).not.toBe(nonces[i - 1]!.slice(1));
  });

  it("a high-s signature (the malleable twin of a valid one) → 401 invalid_signature; the low-s original signs in", async () => {
    const account = newAccount();
    const message = await siweMessageFor(t, account);
    const low = await account.signMessage({ message });
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const sHigh = n - BigInt(`0x${low.slice(66, 130)}`);
    const v = parseInt(low.slice(130), 16);
    const high =
      `${low.slice(0, 66)}${sHigh.toString(16).padStart(64, "0")}${(v === 27 ? 28 : 27).toString(16)}` as Hex;
    // The twin is a valid ECDSA signature of the same message by the same key …
    expect((await recoverMessageAddress({ message, signature: high })).toLowerCase()).toBe(
      account.address.toLowerCase(),
    );
    // … and is refused here.
    const r = await t.call("POST", "/auth/siwe", { body: { message, signature: high } });
    expectError(r, 401, "UNAUTHORIZED");
    expect(r.body.details.reason).toBe("invalid_signature");
    expect((await t.call("POST", "/auth/siwe", { body: { message, signature: low } })).status).toBe(200);
  });

  it("a signature by another account → 401", async () => {
    const message = await siweMessageFor(t, newAccount());
    const r = await t.call("POST", "/auth/siwe", {
      body: { message, signature: await newAccount().signMessage({ message }) },
    });
    expectError(r, 401, "UNAUTHORIZED");
    expect(r.body.details.reason).toBe("invalid_signature");
  });

  it("a nonce older than 5 minutes → 401", async () => {
    const account = newAccount();
    const message = await siweMessageFor(t, account);
    t.clock.advance(6 * 60_000);
    const r = await t.call("POST", "/auth/siwe", {
      body: { message, signature: await account.signMessage({ message }) },
    });
    expectError(r, 401, "UNAUTHORIZED");
  });

  it("a session token stops working after 24 h", async () => {
    const a = await signIn(t);
    t.clock.advance(24 * HOUR - 1000);
    expect((await t.call("PUT", `/agents/${a.address}`, { token: a.token, body: { kind: "human" } })).status).toBe(200);
    t.clock.advance(1000);
    expectError(
      await t.call("PUT", `/agents/${a.address}`, { token: a.token, body: { kind: "hybrid" } }),
      401,
      "UNAUTHORIZED",
    );
    expect((await t.call("GET", `/agents/${a.address}`)).body.kind).toBe("human");
  });

  it("a garbage bearer or a Basic authorization → 401, also on reads", async () => {
    const a = await signIn(t);
    for (const authorization of ["Bearer garbage", "Basic x", "Bearer", `Bearer ${a.token} extra`]) {
      const headers = { authorization };
      expectError(
        await t.call("PUT", `/agents/${a.address}`, { headers, body: { kind: "human" } }),
        401,
        "UNAUTHORIZED",
      );
      expectError(await t.call("GET", "/missions", { headers }), 401, "UNAUTHORIZED");
    }
  });
});

describe("registry attestation (AIP-1 §1.4)", () => {
  it.each(["raw", "eip191"] as const)(
    "a valid %s-signed attestation binds; api_key (query or X-Api-Key) submits as the bound address",
    async (mode) => {
      const { mission } = await openMission(t);
      const { res, f } = await bind(REGISTRY, { ttl_seconds: 3600 }, mode);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        bound: true,
        agent_id: f.evm_address.toLowerCase(),
        registry_domain: "registry.example",
        expires_at: new Date(new Date(f.issued_at).getTime() + HOUR).toISOString(),
      });
      const viaQuery = await submit(mission.id, { content: `query ${mode}` }, { apiKey: f.api_key });
      expect(viaQuery.status, viaQuery.text).toBe(201);
      expect(viaQuery.body.submitter).toBe(f.evm_address.toLowerCase());
      const viaHeader = await submit(mission.id, { content: `header ${mode}` }, { apiKey: f.api_key, header: true });
      expect(viaHeader.status, viaHeader.text).toBe(201);
      expect(viaHeader.body.submitter).toBe(f.evm_address.toLowerCase());
      const list = await t.call("GET", `/missions/${mission.id}/submissions`);
      expect(list.body.submissions.map((s: { submitter: string }) => s.submitter)).toEqual([
        f.evm_address.toLowerCase(),
        f.evm_address.toLowerCase(),
      ]);
    },
  );

  it("the default ttl is 24 h", async () => {
    const { res, f } = await bind(REGISTRY);
    expect(res.status).toBe(200);
    expect(res.body.expires_at).toBe(new Date(new Date(f.issued_at).getTime() + 24 * HOUR).toISOString());
  });

  it("ttl_seconds (outside the signed hash) is capped by the registry's max_ttl_seconds", async () => {
    const { res, f } = await bind(REGISTRY, { ttl_seconds: 30 * 24 * 3600 });
    expect(res.status).toBe(200);
    expect(res.body.expires_at).toBe(new Date(new Date(f.issued_at).getTime() + 24 * HOUR).toISOString());
  });

  it("a signature by a non-registry account → 403 invalid_signature, and the key stays anonymous", async () => {
    const { mission } = await openMission(t);
    const { res, f } = await bind(newAccount());
    expectError(res, 403, "FORBIDDEN");
    expect(res.body.details.reason).toBe("invalid_signature");
    expectAnonymous(await submit(mission.id, { content: "x" }, { apiKey: f.api_key }));
  });

  it("another configured registry's key does not sign for this registry → 403 invalid_signature", async () => {
    const f = {
      api_key: freshKey(),
      evm_address: newAccount().address,
      issued_at: t.clock.now().toISOString(),
      registry_domain: "registry.example",
    };
    const r = await t.call("POST", "/attestations/registry", { body: await attestation(OTHER_REGISTRY, f) });
    expectError(r, 403, "FORBIDDEN");
    expect(r.body.details.reason).toBe("invalid_signature");
  });

  it("an unknown registry_domain → 403 unknown_registry", async () => {
    const { res } = await bind(REGISTRY, { registry_domain: "smithery.ai" });
    expectError(res, 403, "FORBIDDEN");
    expect(res.body.details.reason).toBe("unknown_registry");
  });

  it("an expired attestation (issued_at + ttl before now) → 403", async () => {
    const { mission } = await openMission(t);
    const issued = new Date(t.clock.now().getTime() - 2 * HOUR).toISOString();
    const { res, f } = await bind(REGISTRY, { issued_at: issued, ttl_seconds: 3600 });
    expectError(res, 403, "FORBIDDEN");
    expect(res.body.details.reason).toBe("expired");
    expectAnonymous(await submit(mission.id, { content: "x" }, { apiKey: f.api_key }));
  });

  it.each([
    ["evm_address", () => ({ evm_address: newAccount().address })],
    ["api_key", () => ({ api_key: freshKey() })],
    ["issued_at", () => ({ issued_at: new Date(t.clock.now().getTime() - 1000).toISOString() })],
  ])("the signed %s changed after signing → 403", async (_field, change) => {
    const f = {
      api_key: freshKey(),
      evm_address: newAccount().address,
      issued_at: t.clock.now().toISOString(),
      registry_domain: "registry.example",
    };
    const signed = await attestation(REGISTRY, f);
    const r = await t.call("POST", "/attestations/registry", { body: { ...signed, ...change() } });
    expectError(r, 403, "FORBIDDEN");
    expect(r.body.details.reason).toBe("invalid_signature");
  });

  it("one address holds api_keys of two registries at once; both submit as that address", async () => {
    const { mission } = await openMission(t);
    const address = newAccount().address;
    const a = await bind(REGISTRY, { evm_address: address });
    const b = await bind(OTHER_REGISTRY, { evm_address: address });
    expect([a.res.status, b.res.status]).toEqual([200, 200]);
    expect(b.res.body.registry_domain).toBe("other.example");
    const ra = await submit(mission.id, { content: "from registry" }, { apiKey: a.f.api_key });
    const rb = await submit(mission.id, { content: "from other" }, { apiKey: b.f.api_key, header: true });
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect([ra.body.submitter, rb.body.submitter]).toEqual([address.toLowerCase(), address.toLowerCase()]);
  });

  it("a second registry cannot take a live api_key → 409; it may once the binding has expired", async () => {
    const { mission } = await openMission(t);
    const first = await bind(REGISTRY, { ttl_seconds: 3600 });
    expect(first.res.status).toBe(200);
    const taken = await bind(OTHER_REGISTRY, { api_key: first.f.api_key });
    expectError(taken.res, 409, "CONFLICT");
    const still = await submit(mission.id, { content: "still mine" }, { apiKey: first.f.api_key });
    expect(still.body.submitter).toBe(first.f.evm_address.toLowerCase());
    t.clock.advance(HOUR + 1000);
    const later = await bind(OTHER_REGISTRY, { api_key: first.f.api_key });
    expect(later.res.status, later.res.text).toBe(200);
  });

  it("after the ttl the api_key is anonymous again → 403 ANONYMOUS_SUBMISSION_REJECTED", async () => {
    const { mission } = await openMission(t);
    const { f } = await bind(REGISTRY, { ttl_seconds: 600 });
    expect((await submit(mission.id, { content: "in time" }, { apiKey: f.api_key })).status).toBe(201);
    t.clock.advance(600_000);
    expectAnonymous(await submit(mission.id, { content: "too late" }, { apiKey: f.api_key }));
    expectAnonymous(await submit(mission.id, { content: "too late" }, { apiKey: f.api_key, header: true }));
    expect((await t.call("GET", `/missions/${mission.id}`)).body.submission_count).toBe(1);
  });

  it("re-presenting the same attestation is harmless; an older attestation cannot replace a newer binding", async () => {
    const { mission } = await openMission(t);
    const old = await bind(REGISTRY, { ttl_seconds: 3600 });
    const oldBody = await attestation(REGISTRY, old.f);
    expect((await t.call("POST", "/attestations/registry", { body: oldBody })).status).toBe(200);
    t.clock.advance(60_000);
    const newer = await bind(REGISTRY, { api_key: old.f.api_key, ttl_seconds: 3600 });
    expect(newer.res.status).toBe(200);
    const replay = await t.call("POST", "/attestations/registry", { body: oldBody });
    expectError(replay, 409, "CONFLICT");
    const r = await submit(mission.id, { content: "who am i" }, { apiKey: old.f.api_key });
    expect(r.body.submitter).toBe(newer.f.evm_address.toLowerCase());
  });
});

describe("anonymous by default, no auto-binding (AIP-1 §1.4)", () => {
  it("submitting with no credentials, or with an unbound api_key → 403 with exactly the §1.4 body", async () => {
    const { mission } = await openMission(t);
    expectAnonymous(await submit(mission.id, { content: "anon" }));
    expectAnonymous(await submit(mission.id, { content: "anon" }, { path: `/missions/${mission.id}/submit` }));
    expectAnonymous(await submit(mission.id, { content: "anon" }, { path: `/api/missions/${mission.id}/submissions` }));
    expectAnonymous(await submit(mission.id, { content: "routed" }, { apiKey: "never-bound" }));
    expectAnonymous(await submit(mission.id, { content: "routed" }, { apiKey: "never-bound", header: true }));
    expectAnonymous(await submit("mis_01JZ0000000000000000000000", { content: "x" }, { apiKey: "never-bound" }));
    // identity is checked before the body: a malformed anonymous submit is still the §1.4 403
    expectAnonymous(await submit(mission.id, { content_hash: "x".repeat(500), metadata: "not-an-object" }));
    expect((await t.call("GET", `/missions/${mission.id}`)).body.submission_count).toBe(0);
  });

  it("registry-routed reads without identity still work", async () => {
    const { mission } = await openMission(t);
    const list = await t.call("GET", "/missions?api_key=unbound&profile=alice+smithery");
    expect(list.status).toBe(200);
    expect(list.body.missions.map((m: { id: string }) => m.id)).toContain(mission.id);
    const one = await t.call("GET", `/api/missions/${mission.id}?api_key=unbound`);
    expect(one.status).toBe(200);
    expect(
      (await t.call("GET", `/missions/${mission.id}/submissions`, { headers: { "x-api-key": "unbound" } })).status,
    ).toBe(200);
  });

  it("nothing is auto-bound: the registry's own signer gets no submissions and no profile", async () => {
    const { mission } = await openMission(t);
    for (let i = 0; i < 3; i++)
      expectAnonymous(await submit(mission.id, { content: `try ${i}` }, { apiKey: `routed-${i}` }));
    const bound = await bind(REGISTRY);
    expect((await submit(mission.id, { content: "attested" }, { apiKey: bound.f.api_key })).status).toBe(201);
    const subs = (await t.call("GET", `/missions/${mission.id}/submissions`)).body.submissions;
    expect(subs.map((s: { submitter: string }) => s.submitter)).toEqual([bound.f.evm_address.toLowerCase()]);
    for (const signer of [REGISTRY, OTHER_REGISTRY]) {
      const agent = await t.call("GET", `/agents/${signer.address}`);
      expect(agent.body).toMatchObject({ registered: false, last_seen_at: null });
    }
    expect((await signIn(t)).address).not.toBe(REGISTRY.address.toLowerCase());
  });
});
