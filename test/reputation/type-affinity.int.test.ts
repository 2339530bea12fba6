import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { serve, type ServerType } from "@hono/node-server";
import { agentTypeAffinity } from "../../src/db/schema/index";
import { signAttestation } from "../../src/features/portability/portability.format";
import { makeTestApp, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { freePort, startIssuer, type IssuerServer } from "../helpers/issuer";

// AIP-3 App. B per-type reputation: `mission_type_affinity` on the agent record, written with the
// global rating in the resolution's transaction; `types_active` in attestations; the documented
// type-overlap trust factor on import; the §6 trusted-issuer entry fields; accepted attestation
// forms (§2.1 digest hex, spec v0.2).

const CODE_REVIEW = {
  target_url: "https://github.com/example/repo/pull/1",
  language: "typescript",
  review_scope: ["bugs", "security"],
  output_format: "markdown",
};

let S: IssuerServer;
let T: TestApp;
type Agent = Awaited<ReturnType<typeof signIn>>;
let A: Agent;
let B: Agent;

/** One creator_judges mission of `over`'s type: A and B submit, `winner` is awarded. */
async function decided(t: TestApp, winner: Agent, loser: Agent, over: Record<string, unknown> = {}) {
  const { creator, mission } = await openMission(t, over);
  const w = await t.call("POST", `/missions/${mission.id}/submissions`, {
    token: winner.token,
    body: { content: "w" },
  });
  await t.call("POST", `/missions/${mission.id}/submissions`, { token: loser.token, body: { content: "l" } });
  const r = await t.call("POST", `/missions/${mission.id}/award`, {
    token: creator.token,
    body: { winners: [{ submission_id: w.body.id }] },
  });
  expect(r.status, r.text).toBe(200);
}

beforeAll(async () => {
  S = await startIssuer();
  T = await makeTestApp({
    OABP_TRUSTED_ISSUERS: JSON.stringify([
      { url: `${S.url}/`, chain_family: "evm", chain_id: "8453", added: "2026-05-01T00:00:00Z" },
    ]),
  });
  A = await signIn(S.t);
  B = await signIn(S.t);
  await decided(S.t, A, B, { mission_type: "code_review", type_params: CODE_REVIEW });
  await decided(S.t, A, B, { mission_type: "code_review", type_params: CODE_REVIEW });
  await decided(S.t, B, A); // freeform: B wins
});
afterAll(async () => {
  await T?.close();
  await S?.close();
});

describe("AIP-3 App. B per-type reputation", () => {
  it("AIP-3 App. B: mission_type_affinity lists each type with a completion (elo, completions, last_active)", async () => {
    const a = (await S.t.call("GET", `/agents/${A.address}`)).body;
    const now = S.t.clock.now().toISOString();
    expect(a.mission_type_affinity).toEqual({
      code_review: { elo: expect.any(Number), completions: 2, last_active: now },
    });
    expect(a.mission_type_affinity.code_review.elo).toBeGreaterThan(1400);
    // A lost the freeform mission: no completion in it, so no freeform entry.
    const b = (await S.t.call("GET", `/agents/${B.address}`)).body;
    expect(Object.keys(b.mission_type_affinity)).toEqual(["freeform"]);
    expect(b.mission_type_affinity.freeform.completions).toBe(1);
    // Per-type ratings move with the same rule as the global one: B's code_review rating went down.
    const [row] = await S.t.deps.database.db
      .select()
      .from(agentTypeAffinity)
      .where(and(eq(agentTypeAffinity.agentId, B.address), eq(agentTypeAffinity.missionType, "code_review")));
    expect(row).toMatchObject({ completions: 0, attempts: 2 });
    expect(row!.elo).toBeLessThan(1400);
  });

  it("AIP-3 §2: types_active is filled from the per-type record and the attestation carries it signed", async () => {
    const doc = (await S.t.call("GET", `/reputation/${A.address}/attestation`)).body;
    expect(doc.reputation.types_active).toEqual(["code_review"]);
    expect(doc.reputation.mission_type_affinity.code_review.completions).toBe(2);
    const docB = (await S.t.call("GET", `/reputation/${B.address}/attestation`)).body;
    expect(docB.reputation.types_active).toEqual(["freeform"]);
  });

  it("AIP-3 App. B: an import counts with the type-overlap trust factor for the types it attests", async () => {
    const doc = (await S.t.call("GET", `/reputation/${A.address}/attestation`)).body;
    const r = await T.call("POST", "/reputation/import", { body: doc });
    expect(r.status, r.text).toBe(200);
    const profile = (await T.call("GET", `/agents/${A.address}`)).body;
    const ir = profile.imported_reputation;
    const lift = doc.reputation.elo - 1400;
    expect(ir.elo).toBe(Math.floor(1400 + lift * 0.5));
    expect(ir.by_mission_type).toEqual({ code_review: Math.floor(1400 + lift * 0.7) });
    expect(ir.sources[0].types_active).toEqual(["code_review"]);
  });

  it("AIP-3 §6: /reputation/trusted-issuers entries carry chain_family, chain_id and added", async () => {
    const r = (await T.call("GET", "/reputation/trusted-issuers")).body;
    expect(r.trusted_issuers).toEqual([
      {
        oabp_server: `${S.url}/`,
        chain_family: "evm",
        chain_id: "8453",
        server_address: null,
        trust_factor: 0.5,
        added: "2026-05-01T00:00:00.000Z",
        private_network: false,
      },
    ]);
  });

  it("AIP-3 §2.1: an issuer signing the hex form of the digest, with spec aip-3-v0.2, is imported", async () => {
    const doc = (await S.t.call("GET", `/reputation/${B.address}/attestation`)).body;
    const { signature: _s, ...unsigned } = doc;
    const v02 = { ...unsigned, spec: "aip-3-v0.2" };
    const { canonicalize, createHash } = await hashers();
    const hex = createHash("sha256").update(canonicalize(v02), "utf8").digest("hex");
    const value = await S.t.deps.attestation.account.signMessage({ message: `0x${hex}` });
    const signed = { ...v02, signature: { algorithm: "secp256k1-eth-personal-sign", value } };
    const r = await T.call("POST", "/reputation/import", { body: signed });
    expect(r.status, r.text).toBe(200);
    // A signature over anything else is still refused.
    const forged = { ...signed, reputation: { ...signed.reputation, elo: signed.reputation.elo + 100 } };
    const f = await T.call("POST", "/reputation/import", { body: forged });
    expect(f.body).toMatchObject({ imported: false, reason: "signature_invalid" });
    // And a spec string we do not know is refused by name.
    const v9 = await signAttestation({ ...unsigned, spec: "aip-3-v9" }, S.t.deps.attestation);
    expect((await T.call("POST", "/reputation/import", { body: v9 })).body).toMatchObject({
      reason: "spec_unsupported",
    });
  });
});

describe("AIP-3 §6 private issuers", () => {
  it("AIP-3 §6: an issuer on a private address is trusted only when listed with that address", async () => {
    // A second issuer on 127.0.0.3: a loopback address the shared fetcher never reaches.
    const host = "127.0.0.3";
    const port = await freePort(host);
    const url = `http://${host}:${port}`;
    const P = await makeTestApp({ OABP_PUBLIC_URL: url });
    const server: ServerType = await new Promise((resolve) => {
      const s = serve({ fetch: P.app.fetch, port, hostname: host }, () => resolve(s));
    });
    try {
      const agent = await signIn(P);
      // An agent with a record there: one freeform win.
      const other = await signIn(P);
      await decided(P, agent, other);
      const att = (await P.call("GET", `/reputation/${agent.address}/attestation`)).body;
      // One after the other: apps sharing a test database are started in turn.
      const listedPlain = await makeTestApp({ OABP_TRUSTED_ISSUERS: JSON.stringify([{ url }]) });
      const listedPrivate = await makeTestApp({
        OABP_TRUSTED_ISSUERS: JSON.stringify([{ url, private_address: host }]),
      });
      const wrongAddress = await makeTestApp({
        OABP_TRUSTED_ISSUERS: JSON.stringify([{ url, private_address: "127.0.0.4" }]),
      });
      try {
        // Listed without its private address: the SSRF rules stand (issuer_unreachable).
        expect((await listedPlain.call("POST", "/reputation/import", { body: att })).body).toMatchObject({
          imported: false,
          reason: "issuer_unreachable",
        });
        // Listed with another address: still refused — only the named address is reachable.
        expect((await wrongAddress.call("POST", "/reputation/import", { body: att })).body).toMatchObject({
          imported: false,
          reason: "issuer_unreachable",
        });
        const ok = await listedPrivate.call("POST", "/reputation/import", { body: att });
        expect(ok.status, ok.text).toBe(200);
        expect((await listedPrivate.call("GET", "/reputation/trusted-issuers")).body.trusted_issuers[0]).toMatchObject({
          private_network: true,
        });
      } finally {
        await Promise.all([listedPlain.close(), listedPrivate.close(), wrongAddress.close()]);
      }
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
      await P.close();
    }
  }, 120_000); // four server apps: set-up time, not an assertion on speed
});

async function hashers() {
  const { createHash } = await import("node:crypto");
  const canonicalize = (await import("canonicalize")).default as unknown as (v: unknown) => string;
  return { createHash, canonicalize };
}
