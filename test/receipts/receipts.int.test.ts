import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyTarget } from "../../src/cli/verify-receipt";
import { ledgerEntries, submissions } from "../../src/db/schema/index";
import {
  generateKeyring,
  keyFilePath,
  loadOrCreateKeyFile,
  readKeyFile,
  rotateKeyFile,
} from "../../src/lib/receipt-keys";
import { signReceipt } from "../../src/lib/receipt-sign";
import { verifyReceipt } from "../../src/features/receipts/receipts.verify";
import { makeTestApp, PUBLIC_URL, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { submitAs } from "../helpers/judging";

// AIP-1 §6.1 end to end: resolve a mission over HTTP, fetch its receipt, and verify it with only
// the receipt and /.well-known/oabp.json through the noble path — before and after a key rotation.
let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  t = await makeTestApp();
  dataDir = mkdtempSync(path.join(tmpdir(), "oabp-receipts-"));
  t.deps.receiptKeys = loadOrCreateKeyFile(dataDir, t.clock.now()).keyring;
});
afterAll(async () => {
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const manifest = async () => {
  const r = await t.call("GET", "/.well-known/oabp.json");
  expect(r.status).toBe(200);
  return r.body as Record<string, any>;
};

/** A creator_judges mission resolved by award; returns the mission and the submissions. */
async function resolved(n: number, winners: (subs: { id: string }[]) => unknown[], maxWinners = 1) {
  const { creator, mission } = await openMission(t, {
    reward: { asset: "USDC", amount: "100000000" },
    verification: { type: "creator_judges", params: { max_winners: maxWinners } },
  });
  const subs: { id: string; address: string }[] = [];
  for (let i = 0; i < n; i++) {
    const a = await signIn(t);
    subs.push({ id: await submitAs(t, mission.id, a, `answer ${i} from ${a.address}`), address: a.address });
  }
  const r = await t.call("POST", `/missions/${mission.id}/award`, {
    token: creator.token,
    body: { winners: winners(subs) },
  });
  expect(r.status, r.text).toBe(200);
  return { mission: r.body, subs };
}

const receiptOf = async (missionId: string, submissionId: string) => {
  const r = await t.call("GET", `/missions/${missionId}/receipts/${submissionId}`);
  expect(r.status, r.text).toBe(200);
  return r;
};

/** Every leaf path of a JSON object, e.g. ["settlement","amount"]. */
function leaves(o: Record<string, unknown>, prefix: string[] = []): string[][] {
  return Object.entries(o).flatMap(([k, v]) =>
    v !== null && typeof v === "object" ? leaves(v as Record<string, unknown>, [...prefix, k]) : [[...prefix, k]],
  );
}
function tampered(receipt: Record<string, any>, p: string[]) {
  const copy = structuredClone(receipt);
  let node = copy;
  for (const k of p.slice(0, -1)) node = node[k];
  const last = p[p.length - 1]!;
  const v = node[last];
  node[last] =
    v === null
      ? 1
      : typeof v === "string"
        ? v.endsWith("0")
          ? `${v.slice(0, -1)}1`
          : `${v.slice(0, -1)}0`
        : typeof v === "number"
          ? v + 1
          : !v;
  return copy;
}

let first: { missionId: string; submissionId: string; agentId: string; receipt: Record<string, any>; text: string };

describe("receipts", () => {
  it("a resolved mission links a receipt that verifies with only the receipt and the manifest", async () => {
    const { mission, subs } = await resolved(3, (s) => [{ submission_id: s[1]!.id }]);
    const winner = subs[1]!;
    expect(mission.resolution.receipt_uri).toBe(`${PUBLIC_URL}/missions/${mission.id}/receipts/${winner.id}`);
    const r = await receiptOf(mission.id, winner.id);
    const receipt = r.body;
    const [sub] = await t.deps.database.db.select().from(submissions).where(eq(submissions.id, winner.id));
    const [entry] = await t.deps.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, "mission_payout"), eq(ledgerEntries.account, `agent:${winner.address}`)));
    expect(receipt).toMatchObject({
      type: "oabp.mission_receipt",
      spec_version: "AIP-1@0.3.8",
      issuer: PUBLIC_URL,
      issued_at: mission.resolution.resolved_at,
      mission_id: mission.id,
      submission_id: winner.id,
      agent_id: winner.address,
      content_hash: sub!.contentHash,
      verification: {
        type: "creator_judges",
        result: "accepted",
        decided_at: mission.resolution.resolved_at,
        verifier: "oabp://oabp.test",
      },
      settlement: {
        status: "credited",
        asset: "USDC",
        amount: "99500000",
        fee_amount: "500000",
        chain_id: null,
        ledger_entry_hash: entry!.hash,
      },
      signature: { alg: "ed25519", key_id: t.deps.receiptKeys.active.keyId },
    });
    expect(receipt.content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(receipt.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const m = await manifest();
    expect(
      await verifyReceipt(receipt, m, {
        mission_id: mission.id,
        submission_id: winner.id,
        agent_id: winner.address,
        issuer: PUBLIC_URL,
      }),
    ).toEqual({ valid: true, reasons: [], provisional: false });
    // Deterministic: the same bytes on every request.
    expect((await receiptOf(mission.id, winner.id)).text).toBe(r.text);
    first = { missionId: mission.id, submissionId: winner.id, agentId: winner.address, receipt, text: r.text };

    // Losers, unknown ids and unresolved missions have none.
    expect((await t.call("GET", `/missions/${mission.id}/receipts/${subs[0]!.id}`)).status).toBe(404);
    expect((await t.call("GET", `/missions/${mission.id}/receipts/sub_01JZ0000000000000000000000`)).status).toBe(404);
    expect((await t.call("GET", `/missions/mis_01JZ0000000000000000000000/receipts/${winner.id}`)).status).toBe(404);
    const open = await openMission(t);
    expect(open.mission.resolution).toBeNull();
    expect((await t.call("GET", `/missions/${open.mission.id}/receipts/${winner.id}`)).status).toBe(404);
  });

  it("multi-winner missions have one receipt per paid submission with its own amount", async () => {
    const { mission, subs } = await resolved(
      3,
      (s) => [
        { submission_id: s[0]!.id, share_bps: 7000 },
        { submission_id: s[2]!.id, share_bps: 3000 },
      ],
      2,
    );
    const m = await manifest();
    const amounts = [];
    for (const s of [subs[0]!, subs[2]!]) {
      const { body } = await receiptOf(mission.id, s.id);
      expect(body.agent_id).toBe(s.address);
      expect(
        (await verifyReceipt(body, m, { mission_id: mission.id, submission_id: s.id, agent_id: s.address })).valid,
      ).toBe(true);
      amounts.push(body.settlement.amount);
    }
    expect(amounts).toEqual(mission.resolution.winners.map((w: { amount: string }) => w.amount));
    expect((await t.call("GET", `/missions/${mission.id}/receipts/${subs[1]!.id}`)).status).toBe(404);
  });

  it("tampering with any field, the digest, the signature or the key id fails verification", async () => {
    const m = await manifest();
    const { receipt } = first;
    const paths = leaves(receipt).filter((p) => p[0] !== "signature" && p[0] !== "digest");
    expect(paths.length).toBeGreaterThanOrEqual(17);
    for (const p of paths) {
      const r = await verifyReceipt(tampered(receipt, p), m);
      expect(r.valid, p.join(".")).toBe(false);
      expect(r.reasons, p.join(".")).toContain("bad_signature");
    }
    const digest = await verifyReceipt(tampered(receipt, ["digest"]), m);
    expect(digest).toMatchObject({ valid: false, reasons: ["digest_mismatch"] });
    // Change the FIRST base64url character: the last one of a 64-byte value carries only 2 data
    // bits, so some substitutions there decode to the very same signature.
    const v = receipt.signature.value as string;
    const badSig = {
      ...receipt,
      signature: { ...receipt.signature, value: `${v[0] === "A" ? "B" : "A"}${v.slice(1)}` },
    };
    expect((await verifyReceipt(badSig, m)).reasons).toContain("bad_signature");
    // …and such a substitution is refused as a spelling: one receipt has one byte form.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const respelt = `${v.slice(0, -1)}${alphabet[alphabet.indexOf(v.at(-1)!) ^ 1]}`;
    expect(Buffer.from(respelt, "base64url")).toEqual(Buffer.from(v, "base64url"));
    expect(
      (await verifyReceipt({ ...receipt, signature: { ...receipt.signature, value: respelt } }, m)).reasons,
    ).toEqual(["invalid_field:signature"]);
    expect(
      (await verifyReceipt({ ...receipt, signature: { ...receipt.signature, key_id: "receipt-key-1999-01" } }, m))
        .reasons,
    ).toEqual(["unknown_key_id"]);
    // A field added after signing is covered too (unknown fields are tolerated, not exempt).
    expect((await verifyReceipt({ ...receipt, extra: "x" }, m)).reasons).toEqual(["digest_mismatch", "bad_signature"]);
    const { verification: _v, ...missing } = receipt;
    expect((await verifyReceipt(missing, m)).reasons).toContain("invalid_field:verification");
    expect(
      (await verifyReceipt(receipt, m, { agent_id: "0x0000000000000000000000000000000000000001" })).reasons,
    ).toEqual(["context_mismatch:agent_id"]);
  });

  it("after a key rotation old receipts still verify and new ones use the new key", async () => {
    const oldKey = t.deps.receiptKeys.active.keyId;
    expect((statSync(keyFilePath(dataDir)).mode & 0o777).toString(8)).toBe("600");
    t.clock.advance(40 * 86_400_000);
    const { active, retired } = rotateKeyFile(dataDir, t.clock.now());
    expect(retired).toEqual([oldKey]);
    expect(readKeyFile(dataDir).find((k) => k.key_id === oldKey)).not.toHaveProperty("private_key");
    expect((statSync(keyFilePath(dataDir)).mode & 0o777).toString(8)).toBe("600");
    t.deps.receiptKeys = loadOrCreateKeyFile(dataDir, t.clock.now()).keyring; // what a restart does
    expect(t.deps.receiptKeys.active.keyId).toBe(active);

    const m = await manifest();
    expect(m.receipt_signing_keys.map((k: { key_id: string }) => k.key_id)).toEqual([active, oldKey]);
    expect(m.receipt_signing_keys[1]).toMatchObject({ valid_until: t.clock.now().toISOString() });
    expect(m.receipt_signing_keys[0]).toMatchObject({ valid_until: null });
    expect(await verifyReceipt(first.receipt, m)).toMatchObject({ valid: true });

    const reissued = (await receiptOf(first.missionId, first.submissionId)).body;
    expect(reissued.signature.key_id).toBe(active);
    expect(await verifyReceipt(reissued, m)).toMatchObject({ valid: true });
    t.clock.advance(60_000);
    const { mission, subs } = await resolved(1, (s) => [{ submission_id: s[0]!.id }]);
    const fresh = (await receiptOf(mission.id, subs[0]!.id)).body;
    expect(fresh.signature.key_id).toBe(active);
    expect(await verifyReceipt(fresh, m)).toMatchObject({ valid: true });
    // The retired key does not vouch for resolutions after its retirement.
    const forged = { ...fresh, signature: { ...fresh.signature, key_id: oldKey } };
    expect((await verifyReceipt(forged, m)).reasons).toEqual(["key_retired_before_issued_at", "bad_signature"]);
  });

  it("POST /receipts/verify follows the same procedure, with this server's manifest by default", async () => {
    const ok = await t.call("POST", "/receipts/verify", { body: { receipt: first.receipt } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ valid: true, reasons: [], provisional: false });
    const bad = await t.call("POST", "/receipts/verify", {
      body: { receipt: tampered(first.receipt, ["settlement", "amount"]) },
    });
    expect(bad.body).toMatchObject({ valid: false, reasons: ["digest_mismatch", "bad_signature"] });
    const foreign = await t.call("POST", "/receipts/verify", {
      body: { receipt: { ...first.receipt, issuer: "https://other.example" } },
    });
    expect(foreign.body.reasons).toContain("issuer_mismatch");
    // A receipt naming this server is checked against this server's keys, whatever manifest is sent.
    const empty = await t.call("POST", "/receipts/verify", {
      body: {
        receipt: first.receipt,
        manifest: { receipt_signing_keys: [] },
        manifest_origin: "https://other.example",
      },
    });
    expect(empty.body).toEqual({ valid: true, reasons: [], provisional: false });
    expect((await t.call("POST", "/receipts/verify", { body: {} })).status).toBe(400);
  });

  it("A receipt forged in this server's name with the forger's own manifest is not valid; another manifest vouches only for its own origin", async () => {
    // Valid from long before the receipt was issued (a key is refused for receipts older than its valid_from).
    const forger = generateKeyring(new Date(t.clock.now().getTime() - 365 * 86_400_000));
    const { digest: _d, signature: _s, ...unsigned } = first.receipt as Record<string, unknown>;
    const forged = signReceipt(
      { ...unsigned, settlement: { ...(unsigned.settlement as object), amount: "999999999" } },
      forger,
    );
    const forgerManifest = { receipt_signing_keys: forger.published };
    // Before: valid: true. Now the supplied manifest is ignored for our own issuer.
    const r = await t.call("POST", "/receipts/verify", {
      body: { receipt: forged, manifest: forgerManifest, manifest_origin: PUBLIC_URL },
    });
    expect(r.body.valid).toBe(false); // bad_signature (key ids are date-based: the forger's names ours) or unknown_key_id
    expect(r.body.reasons.some((x: string) => x === "bad_signature" || x === "unknown_key_id")).toBe(true);
    // A receipt of another issuer, signed by that issuer's key.
    const other = signReceipt({ ...unsigned, issuer: "https://other-oabp.example" }, forger);
    const verify = (origin?: string) =>
      t.call("POST", "/receipts/verify", {
        body: { receipt: other, manifest: forgerManifest, ...(origin && { manifest_origin: origin }) },
      });
    expect((await verify("https://other-oabp.example")).body).toEqual({ valid: true, reasons: [], provisional: false });
    expect((await verify("https://other-oabp.example/.well-known/oabp.json")).body.valid).toBe(true); // the origin of a URL
    expect((await verify("https://third.example")).body).toMatchObject({ valid: false, reasons: ["issuer_mismatch"] });
    const missing = await verify();
    expect(missing.status).toBe(400);
    expect(missing.body.details.field).toBe("manifest_origin");
  });

  it("the verify command checks a file or URL against the issuer's manifest", async () => {
    const receiptFile = path.join(dataDir, "receipt.json");
    const manifestFile = path.join(dataDir, "oabp.json");
    writeFileSync(receiptFile, first.text);
    writeFileSync(manifestFile, (await t.call("GET", "/.well-known/oabp.json")).text);
    expect(await verifyTarget(receiptFile, { manifestFile })).toMatchObject({ valid: true, reasons: [] });
    writeFileSync(receiptFile, JSON.stringify(tampered(first.receipt, ["agent_id"])));
    expect((await verifyTarget(receiptFile, { manifestFile })).valid).toBe(false);
    // By URL: the manifest comes from the receipt's issuer origin.
    const fetched: string[] = [];
    const fetcher = (async (u: string) => (fetched.push(u), t.app.request(u))) as unknown as typeof fetch;
    const url = `${PUBLIC_URL}/missions/${first.missionId}/receipts/${first.submissionId}`;
    expect(await verifyTarget(url, { fetcher })).toMatchObject({ valid: true, issuer: PUBLIC_URL });
    expect(fetched).toEqual([url, `${PUBLIC_URL}/.well-known/oabp.json`]);
    expect(readFileSync(manifestFile, "utf8").length).toBeGreaterThan(0);
  });
});

describe("manifest (AIP-1 §9)", () => {
  it("has every §9 field, relative endpoints, no mcp object; the alias is byte-identical", async () => {
    const a = await t.app.request("/.well-known/oabp.json");
    const b = await t.app.request("/.well-known/agent-bounty.json");
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.headers.get("content-type")).toMatch(/^application\/json/);
    expect(a.headers.get("access-control-allow-origin")).toBe("*");
    expect(b.headers.get("access-control-allow-origin")).toBe("*");
    const bytesA = Buffer.from(await a.arrayBuffer());
    expect(bytesA.equals(Buffer.from(await b.arrayBuffer()))).toBe(true);
    const m = JSON.parse(bytesA.toString("utf8"));
    expect(m).toMatchObject({
      implementation: "oabp-server",
      aip_supported: [1, 2, 3, 4],
      chain: "off-chain",
      contact: "mailto:admin@oabp.test",
      payment_options: { assets: ["USDC"], chains: [], min_reward_usd: 1, ledger: { enabled: true, assets: ["USDC"] } },
      // No RPC node here: oracle missions cannot be decided, so `oracle` is not offered.
      verification_types: ["creator_judges", "first_valid_match", "peer_vote"],
      fee_bps: 50,
      registries: [],
      receipt_endpoint_template: "/missions/{mission_id}/receipts/{submission_id}",
    });
    expect(m.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(m.aip_supported).toEqual(expect.arrayContaining([1, 2, 3, 4]));
    expect(m.mcp).toMatchObject({ url: "/mcp", transport: "streamable_http" }); // the §7.1 object: test/mcp/mcp-contract.int.test.ts
    for (const k of ["missions", "agents", "agent_badge", "leaderboard", "feed", "sitemap", "openapi"])
      expect(m.endpoints[k], k).toMatch(/^\/[^/]/);
    expect(m.endpoints).toMatchObject({ feed: "/feed.xml", sitemap: "/sitemap.xml", openapi: "/openapi.json" });
    for (const k of m.receipt_signing_keys) {
      expect(Object.keys(k).sort()).toEqual(["alg", "key_id", "public_key", "valid_from", "valid_until"]);
      expect(Buffer.from(k.public_key, "base64url")).toHaveLength(32);
    }
    expect(JSON.stringify(m)).not.toMatch(/private/);
  });
});

describe("mission_hash and submission_hash (§6.1, MAY)", () => {
  it("bind the mission's and the submission's immutable terms, recomputable from what GET serves", async () => {
    const { createHash } = await import("node:crypto");
    const canonicalize = (await import("canonicalize")).default;
    const { mission, subs } = await resolved(1, (s) => [{ submission_id: s[0]!.id }]);
    const receipt = (await receiptOf(mission.id, subs[0]!.id)).body;
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    const s = (await t.call("GET", `/missions/${mission.id}/submissions/${subs[0]!.id}`)).body;
    const h = (o: unknown) => `sha256:${createHash("sha256").update(canonicalize(o)!).digest("hex")}`;
    expect(receipt.mission_hash).toBe(
      h({
        id: m.id,
        creator: m.creator,
        title: m.title,
        description: m.description,
        reward: m.reward,
        verification: m.verification,
        deadline: m.deadline,
        created_at: m.created_at,
      }),
    );
    expect(receipt.submission_hash).toBe(
      h({
        id: s.id,
        mission_id: s.mission_id,
        submitter: s.submitter,
        content_hash: s.content_hash,
        submitted_at: s.submitted_at,
      }),
    );
    expect((await verifyReceipt(receipt, await manifest())).valid).toBe(true);
  });
});
