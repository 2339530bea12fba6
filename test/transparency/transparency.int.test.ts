import { createHash, createPublicKey, verify } from "node:crypto";
import canonicalize from "canonicalize";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { openMission, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";
import { awardedTo } from "../helpers/mission-flow";

// And the public /stats, on the database under test. The
// base rail's reconciliation on anvil: transparency-base.e2e.test.ts.

const t = useTestApp();

/** Past every per-instance cache (transparency 10 s, stats 60 s). */
const fresh = () => t.clock.advance(120_000);

async function paidMission(amount: string) {
  const { creator, mission } = await openMission(t, { reward: { asset: "USDC", amount } });
  const solver = await signIn(t);
  const sub = await t.call("POST", `/missions/${mission.id}/submissions`, {
    token: solver.token,
    body: { content: `answer ${mission.id}` },
  });
  expect(sub.status, sub.text).toBe(201);
  await awardedTo(t, mission.id, creator, sub.body.id);
  return { mission, solver, submissionId: sub.body.id as string };
}

describe("GET /transparency", () => {
  it("signs the ledger rail's per-asset escrowed total and heads digest, verifiable with the manifest key alone", async () => {
    fresh();
    const before = (await t.call("GET", "/transparency")).body;
    await openMission(t, { reward: { asset: "USDC", amount: "42000000" } });
    fresh();
    const r = await t.call("GET", "/transparency");
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("cache-control")).toContain("public");
    const usdc = (d: { ledger: { assets: { asset: string; escrowed_total: string }[] } }) =>
      d.ledger.assets.find((a) => a.asset === "USDC")!;
    expect(BigInt(usdc(r.body).escrowed_total) - BigInt(usdc(before).escrowed_total)).toBe(42_000_000n);
    expect(r.body.ledger.assets).toEqual(
      r.body.ledger.attestation.assets.map((a: Record<string, unknown>) => ({ ...a })),
    );
    // Offline verification: JCS without digest and signature, sha256, ed25519 with the manifest key.
    const { digest, signature, ...payload } = r.body.ledger.attestation;
    const bytes = Buffer.from(canonicalize(payload)!);
    expect(digest).toBe(`sha256:${createHash("sha256").update(bytes).digest("hex")}`);
    const manifest = (await t.call("GET", "/.well-known/oabp.json")).body;
    const key = manifest.receipt_signing_keys.find((k: { key_id: string }) => k.key_id === signature.key_id);
    const pub = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: key.public_key }, format: "jwk" });
    expect(verify(null, bytes, pub, Buffer.from(signature.value, "base64url"))).toBe(true);
    // A tampered total does not verify.
    const forged = { ...payload, assets: payload.assets.map((a: object) => ({ ...a, escrowed_total: "1" })) };
    expect(verify(null, Buffer.from(canonicalize(forged)!), pub, Buffer.from(signature.value, "base64url"))).toBe(
      false,
    );
  });

  it("says explicitly that no RPC is configured: the base rail is not reconciled", async () => {
    const r = await t.call("GET", "/transparency");
    expect(r.body.base).toMatchObject({
      enabled: false,
      off_reason: "no_rpc_url",
      rpc: "not_configured",
      block_number: null,
      assets: [],
    });
    expect(r.body.base.note).toContain("no RPC");
    expect(r.body.payouts).toBe("/transparency/payouts");
    expect((await t.call("GET", "/api/transparency")).status).toBe(200);
  });
});

describe("GET /transparency/payouts", () => {
  it("pages every paid winner newest first with its ledger entry hash; the cursor resumes without overlap", async () => {
    const paid: Awaited<ReturnType<typeof paidMission>>[] = [];
    for (const amount of ["10000000", "20000000", "30000000"]) {
      paid.push(await paidMission(amount));
      t.clock.advance(1_000);
    }
    const first = await t.call("GET", "/transparency/payouts?limit=2");
    expect(first.status, first.text).toBe(200);
    expect(first.body.payouts.map((p: { submission_id: string }) => p.submission_id)).toEqual([
      paid[2]!.submissionId,
      paid[1]!.submissionId,
    ]);
    const top = first.body.payouts[0];
    expect(top).toMatchObject({
      mission_id: paid[2]!.mission.id,
      agent_id: paid[2]!.solver.address,
      asset: "USDC",
      amount: ((30_000_000n * 9950n) / 10_000n).toString(), // reward − 0.5 % fee
      rail: "ledger",
      settlement: { status: "credited", chain_id: null, tx_hash: null },
      receipt: `/missions/${paid[2]!.mission.id}/receipts/${paid[2]!.submissionId}`,
    });
    // The entry hash is the receipt's settlement proof.
    const receipt = await t.call("GET", top.receipt);
    expect(receipt.status, receipt.text).toBe(200);
    expect(top.settlement.ledger_entry_hash).toBe(receipt.body.settlement.ledger_entry_hash);
    expect(first.body.next_cursor).toEqual(expect.any(String));

    const second = await t.call(
      "GET",
      `/transparency/payouts?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(second.status, second.text).toBe(200);
    expect(second.body.payouts[0].submission_id).toBe(paid[0]!.submissionId);
    // The same payouts as Atom: valid XML, newest first, each with its author and categories.
    const atom = await t.call("GET", "/transparency/payouts.atom?limit=3");
    expect(atom.status, atom.text).toBe(200);
    expect(atom.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    expect(XMLValidator.validate(atom.text)).toBe(true);
    const entries = [
      new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(atom.text).feed.entry,
    ].flat();
    expect(entries.map((e: { id: string }) => e.id)).toEqual(
      [2, 1, 0].map((i) => `${t.deps.config.publicUrl}/transparency/payouts#${paid[i]!.submissionId}`),
    );
    expect(entries[0].author.name).toBe(paid[2]!.solver.address);
    expect(entries[0].category.map((c: Record<string, string>) => c["@_term"])).toEqual(["ledger", "USDC"]);
    expect((await t.call("GET", "/transparency/payouts.atom?limit=500")).status).toBe(400);
    // Filters: no base-rail payouts on this server.
    const base = await t.call("GET", "/transparency/payouts?rail=base");
    expect(base.body).toEqual({ payouts: [], next_cursor: null });
  });

  it("answers a bad cursor, limit or rail with 400 INVALID_PARAMETER", async () => {
    for (const q of [
      "cursor=not-a-cursor",
      `cursor=${Buffer.from(JSON.stringify(["2026-01-01T00:00:00Z", "mis_x"])).toString("base64url")}`,
      `cursor=${Buffer.from(JSON.stringify(["yesterday", "sub_01J00000000000000000000000"])).toString("base64url")}`,
      "limit=0",
      "limit=101",
      "rail=solana",
    ]) {
      const r = await t.call("GET", `/transparency/payouts?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error, q).toBe("INVALID_PARAMETER");
    }
  });
});

describe("GET /stats", () => {
  it("counts public missions by status, volume paid per asset and agents, with HTTP caching", async () => {
    fresh();
    const before = (await t.call("GET", "/stats")).body;
    await paidMission("50000000");
    await openMission(t);
    // Cached for a minute on this instance.
    const cached = await t.call("GET", "/stats");
    expect(cached.body).toEqual(before);
    fresh();
    const r = await t.call("GET", "/stats");
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("cache-control")).toBe("public, max-age=60");
    const etag = r.headers.get("etag")!;
    expect(etag).toMatch(/^".+"$/);
    expect(r.body.missions.by_status.resolved - before.missions.by_status.resolved).toBe(1);
    expect(r.body.missions.by_status.open - before.missions.by_status.open).toBe(1);
    expect(r.body.missions.total - before.missions.total).toBe(2);
    const usdc = (d: { volume_paid: { asset: string; amount: string; payouts: number }[] }) =>
      d.volume_paid.find((v) => v.asset === "USDC")!;
    expect(BigInt(usdc(r.body).amount) - BigInt(usdc(before).amount)).toBe((50_000_000n * 9950n) / 10_000n);
    expect(usdc(r.body).payouts - usdc(before).payouts).toBe(1);
    expect(r.body.agents - before.agents).toBe(3); // two creators and a solver
    const again = await t.call("GET", "/stats", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
  });
});
