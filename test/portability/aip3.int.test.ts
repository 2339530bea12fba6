import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recoverMessageAddress } from "viem";
import { attestationSigners, signAttestation, signingPayload } from "../../src/features/portability/portability.format";
import { generateSigner } from "../../src/lib/attestation-key";
import { settlementPayload } from "../../src/features/receipts/receipts.aip3";
import { makeTestApp, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { startIssuer, type IssuerServer } from "../helpers/issuer";
import { startReceiver, type Receiver } from "../helpers/receiver";

// AIP-3 end to end through HTTP: an issuer server S (served on loopback 127.0.0.2) signs
// attestations that the target T verifies against S's manifest and imports; forged, expired and
// otherwise bad attestations are refused with the §4.1 reason; self-submissions (§3.1) are
// flagged and never credited; §10 settlement receipts and the flat submission routes.

let S: IssuerServer;
let T: TestApp;
let rogue: Receiver;
type Agent = Awaited<ReturnType<typeof signIn>>;
let A: Agent;
let B: Agent;
let winningSub: string;
let losingSub: string;
let selfSub: string;
let creatorAddress: string;

/** A 10 USDC first_valid_match mission ("42") on `app` that `solver` solves at once with `content`. */
async function solvedFirstValidMatch(app: TestApp, solver: { token: string }, content: string) {
  const { mission } = await openMission(app, {
    reward: { asset: "USDC", amount: "10000000" },
    verification: { type: "first_valid_match", params: { expected: "42" } },
  });
  const r = await app.call("POST", `/missions/${mission.id}/submissions`, { token: solver.token, body: { content } });
  expect(r.body.status, r.text).toBe("accepted");
}

beforeAll(async () => {
  S = await startIssuer();
  // A server whose manifest publishes some other key (the attestation's key is then a lie).
  const other = generateSigner();
  rogue = await startReceiver({
    "/.well-known/oabp.json": () => ({
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ issuer_address: other.address }),
    }),
  });
  T = await makeTestApp({ OABP_TRUSTED_ISSUERS: JSON.stringify([{ url: `${S.url}/` }, { url: rogue.base }]) });
  const s = S.t;
  A = await signIn(s);
  B = await signIn(s);
  // creator_judges: A and B submit, the creator submits to its own mission too; A is awarded.
  const { creator, mission } = await openMission(s);
  creatorAddress = creator.address;
  const a = await s.call("POST", `/missions/${mission.id}/submissions`, {
    token: A.token,
    body: { content: "answer a" },
  });
  const b = await s.call("POST", `/missions/${mission.id}/submissions`, {
    token: B.token,
    body: { content: "answer b" },
  });
  const self = await s.call("POST", `/missions/${mission.id}/submissions`, {
    token: creator.token,
    body: { content: "my own answer" },
  });
  expect(self.status).toBe(200); // §3.1 "MUST still accept the submission (return HTTP 200)"
  [winningSub, losingSub, selfSub] = [a.body.id, b.body.id, self.body.id];
  expect(self.body).toMatchObject({ self_submission: true, status: "rejected", reason: "self_submission" });
  const award = await s.call("POST", `/missions/${mission.id}/award`, {
    token: creator.token,
    body: { winners: [{ submission_id: winningSub }] },
  });
  expect(award.status).toBe(200);
  // first_valid_match: A right at once.
  await solvedFirstValidMatch(s, A, "it is 42");
});
afterAll(async () => {
  await T?.close();
  await S?.close();
  await rogue?.close();
});

async function attestationOf(address: string) {
  const r = await S.t.call("GET", `/reputation/${address}/attestation`);
  expect(r.status).toBe(200);
  return r.body;
}

describe("AIP-3 §2 attestations", () => {
  it("signs the agent's current rating, counts and the §2 breakdown with the manifest's issuer_address", async () => {
    const manifest = (await S.t.call("GET", "/.well-known/oabp.json")).body;
    expect(manifest.issuer_address).toBe(S.t.deps.attestation.address);
    expect(manifest.aips).toContain("aip-3");
    expect(manifest.aip_support).toContain("AIP-4");
    expect(manifest.aip_supported).toContain(3);
    expect(manifest.cross_chain).toMatchObject({
      import_enabled: true,
      open_import: false,
      trust_factor: 0.5,
      max_attestation_age_days: 90,
    });
    const doc = await attestationOf(A.address.toUpperCase().replace("0X", "0x"));
    const profile = (await S.t.call("GET", `/agents/${A.address}`)).body;
    expect(doc).toMatchObject({
      spec: "aip-3-v0.1",
      issued_at: "2026-06-01T00:00:00.000Z",
      expires_at: "2026-07-01T00:00:00.000Z",
    });
    expect(doc.issuer).toMatchObject({
      oabp_server: `${S.url}/`,
      chain_family: "evm",
      server_address: manifest.issuer_address,
    });
    expect(doc.subject.address.toLowerCase()).toBe(A.address);
    expect(doc.reputation.elo).toBe(profile.rating);
    expect(doc.reputation.elo).toBeGreaterThan(1400);
    // §2: the breakdown's keys, weights and sum rule.
    expect(doc.reputation.breakdown.bounties).toEqual({
      first_valid_match: 1,
      oracle: 0,
      creator_judges: 1,
      peer_vote: 0,
      total_weighted_points: 6,
    });
    expect(doc.reputation.missions_completed).toBe(2);
    expect(doc.reputation.total_earned_usd_equivalent).toBeGreaterThan(0);
    expect(doc.signature.algorithm).toBe("secp256k1-eth-personal-sign");
    // §2.1: personal_sign over the SHA-256 of the canonical JSON without `signature`.
    expect(await attestationSigners(doc)).toContain(manifest.issuer_address);
    expect(signingPayload(doc)).not.toContain("signature");
  });

  it("§3.1: the creator's self-submission is flagged and credits nothing", async () => {
    const doc = await attestationOf(creatorAddress);
    expect(doc.reputation).toMatchObject({ elo: 1400, missions_completed: 0, missions_failed: 0 });
    const h = (await S.t.call("GET", `/agents/${creatorAddress}/history`)).body;
    expect(h.history).toEqual([]);
    const sub = (await S.t.call("GET", `/submissions/${selfSub}`)).body;
    expect(sub).toMatchObject({ self_submission: true, status: "rejected" });
    // B lost: one failure, rated down.
    expect((await attestationOf(B.address)).reputation).toMatchObject({ missions_failed: 1, missions_completed: 0 });
  });

  it("answers 404 for an address with no record and 400 for a malformed one", async () => {
    expect((await S.t.call("GET", `/reputation/0x${"ab".repeat(20)}/attestation`)).status).toBe(404);
    const bad = await S.t.call("GET", "/reputation/not-an-address/attestation");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("INVALID_PARAMETER");
  });
});

describe("AIP-3 §10 settlement receipts and flat submission routes", () => {
  it("GET /api/submissions/{id}/receipt is signed by issuer_address; /submissions/{id} embeds it", async () => {
    const r = await S.t.call("GET", `/api/submissions/${winningSub}/receipt`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      receipt_type: "settlement",
      spec_version: "AIP-3/1.0",
      settlement_status: "confirmed",
      settlement_chain: "ledger",
      settlement_tx: null,
      reward_asset: "USDC",
      signature_algo: "eth_personal_sign",
    });
    expect(r.body.receipt_id).toMatch(/^rec_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r.body.agent_id).toBe(A.account.address); // EIP-55
    expect(r.body.artifact_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const signer = await recoverMessageAddress({ message: settlementPayload(r.body), signature: r.body.signature });
    expect(signer.toLowerCase()).toBe(S.t.deps.attestation.address);
    // Stable: the same document on every request.
    expect((await S.t.call("GET", `/submissions/${winningSub}/receipt`)).text).toBe(r.text);
    const flat = await S.t.call("GET", `/api/submissions/${winningSub}`);
    expect(flat.status).toBe(200);
    expect(flat.body).toMatchObject({ id: winningSub, status: "accepted", receipt: r.body });
    // A tampered receipt no longer recovers to the issuer.
    const forged = { ...r.body, reward_amount: "999999999999" };
    expect(
      (await recoverMessageAddress({ message: settlementPayload(forged), signature: forged.signature })).toLowerCase(),
    ).not.toBe(S.t.deps.attestation.address);
  });

  it("404 for unknown and for unpaid submissions", async () => {
    const lost = await S.t.call("GET", `/api/submissions/${losingSub}/receipt`);
    expect(lost.status).toBe(404);
    expect(lost.body.details.reason).toBe("not_paid");
    expect((await S.t.call("GET", "/api/submissions/sub_01JZ0000000000000000000000/receipt")).status).toBe(404);
    expect((await S.t.call("GET", "/submissions/nope")).status).toBe(404);
    expect((await S.t.call("GET", `/submissions/${losingSub}`)).body).not.toHaveProperty("receipt");
  });
});

describe("AIP-3 §4 import", () => {
  it("imports a trusted issuer's attestation with the §3 formula, shown apart from the local rating", async () => {
    const doc = await attestationOf(A.address);
    const r = await T.call("POST", "/reputation/import", { body: doc });
    expect(r.status).toBe(200);
    const expected = Math.floor(1400 + (doc.reputation.elo - 1400) * 0.5 * 1);
    expect(r.body).toMatchObject({
      imported: true,
      subject_address: A.address,
      initial_elo: expected,
      aggregated_elo: expected,
      trust_factor_applied: 0.5,
      freshness_factor_applied: 1,
      valid_until: doc.expires_at,
      transitions_to_local_after_n_missions: 3,
    });
    const p = (await T.call("GET", `/api/agents/${A.address}`)).body;
    expect(p.rating).toBe(1400); // local ELO untouched
    expect(p.imported_reputation).toMatchObject({
      elo: expected,
      missions_until_local: 3,
      sources: [{ issuer: `${S.url}/`, attested_elo: doc.reputation.elo }],
    });
    const trusted = (await T.call("GET", "/reputation/trusted-issuers")).body;
    expect(trusted.trusted_issuers[0]).toMatchObject({ oabp_server: `${S.url}/`, trust_factor: 0.5 });
  });

  it("shows the import in ADP discovery beside the local score, and lapses after 3 local paid missions (§4 step 4)", async () => {
    const doc = await attestationOf(A.address);
    expect((await T.call("POST", "/reputation/import", { body: doc })).status).toBe(200);
    const expected = Math.floor(1400 + (doc.reputation.elo - 1400) * 0.5);
    const a = await signIn(T, A.account);
    const card = {
      id: `agent://bot-${A.address.slice(2, 10)}`,
      name: "bot a",
      description: "Chinese-English translation of legal contracts",
      version: "1.0.0",
      seq: 1,
      skills: ["nlp/translation/zh"],
      endpoints: [{ protocol: "http+json", uri: "https://bot.example/v1", auth: "bearer" }],
      extensions: { oabp: { agent_id: A.address } },
    };
    const adv = await T.call("POST", "/adp/adp.advertise", { token: a.token, body: card });
    expect(adv.status, adv.text).toBe(200);
    const found = async () =>
      (await T.call("POST", "/adp/adp.discover", { body: { tags: ["nlp/translation/zh"] } })).body.results.find(
        (r: { agent_id: string }) => r.agent_id === A.address,
      );
    expect(await found()).toMatchObject({ imported_elo: expected });
    for (let i = 0; i < 3; i++) {
      await solvedFirstValidMatch(T, a, `42 (${i})`);
      const p = (await T.call("GET", `/agents/${A.address}`)).body;
      expect(p.missions_completed).toBe(i + 1);
      if (i < 2) expect(p.imported_reputation.missions_until_local).toBe(2 - i);
      else expect(p.imported_reputation).toBeNull();
    }
    expect(await found()).toMatchObject({ imported_elo: null });
  });

  it("discounts by age: 15 days later the freshness is 1 − 15/90", async () => {
    const doc = await attestationOf(B.address);
    T.clock.advance(15 * 86_400_000);
    try {
      const r = await T.call("POST", "/reputation/import", { body: doc });
      expect(r.status, r.text).toBe(200);
      expect(r.body.freshness_factor_applied).toBe(0.833);
      // B's rating is below the floor: an import never starts anyone below a newcomer.
      expect(r.body.initial_elo).toBe(1400);
    } finally {
      T.clock.advance(-15 * 86_400_000);
    }
  });

  const refused = async (body: unknown, reason: string) => {
    const r = await T.call("POST", "/reputation/import", { body });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toMatchObject({ imported: false, reason, error: "INVALID_PARAMETER" });
    return r;
  };

  it("refuses forged, expired, over-long, malformed and self-issued attestations", async () => {
    const doc = await attestationOf(A.address);
    await refused({ ...doc, reputation: { ...doc.reputation, elo: 2400 } }, "signature_invalid");
    await refused({ ...doc, signature: { ...doc.signature, value: "0x1234" } }, "signature_invalid");
    T.clock.advance(31 * 86_400_000);
    try {
      await refused(doc, "attestation_expired");
    } finally {
      T.clock.advance(-31 * 86_400_000);
    }
    const { signature: _s, ...unsigned } = doc;
    const long = await signAttestation({ ...unsigned, expires_at: "2026-09-01T00:00:00.000Z" }, S.t.deps.attestation);
    await refused(long, "lifetime_exceeds_90_days");
    const badBreakdown = await signAttestation(
      {
        ...unsigned,
        reputation: {
          ...doc.reputation,
          breakdown: { bounties: { ...doc.reputation.breakdown.bounties, total_weighted_points: 7 } },
        },
      },
      S.t.deps.attestation,
    );
    await refused(badBreakdown, "breakdown_invalid");
    const tooMany = await signAttestation(
      { ...unsigned, reputation: { ...doc.reputation, missions_completed: 1 } },
      S.t.deps.attestation,
    );
    await refused(tooMany, "breakdown_invalid");
    await refused({ spec: "aip-3-v0.1" }, "attestation_malformed");
    await refused({ ...doc, spec: "aip-3-v9" }, "spec_unsupported");
    // T's own attestation is not imported into T.
    const mine = await signIn(T);
    await T.call("PUT", `/agents/${mine.address}`, { token: mine.token, body: { display_name: "me" } });
    const own = (await T.call("GET", `/reputation/${mine.address}/attestation`)).body;
    await refused(own, "issuer_is_self");
  });

  it("refuses unknown issuers and a key the issuer's manifest does not publish", async () => {
    const doc = await attestationOf(A.address);
    const { signature: _s, ...unsigned } = doc;
    const stranger = generateSigner();
    const unknown = await signAttestation(
      {
        ...unsigned,
        issuer: { ...doc.issuer, oabp_server: "https://elsewhere.example/", server_address: stranger.address },
      },
      stranger,
    );
    await refused(unknown, "issuer_unknown");
    // Claims S's URL but signs with another key: S's manifest names a different issuer_address.
    const impostor = await signAttestation(
      { ...unsigned, issuer: { ...doc.issuer, server_address: stranger.address } },
      stranger,
    );
    await refused(impostor, "issuer_key_mismatch");
    // A trusted URL whose manifest publishes yet another key.
    const viaRogue = await signAttestation(
      { ...unsigned, issuer: { ...doc.issuer, oabp_server: `${rogue.base}/`, server_address: stranger.address } },
      stranger,
    );
    await refused(viaRogue, "issuer_key_mismatch");
  });
});
