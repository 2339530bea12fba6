import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { credit, openMission, signIn } from "../helpers/agents";
import { startReceiver } from "../helpers/receiver";
import { userAgent } from "../../src/lib/user-agent";
import { missions } from "../../src/db/schema/index";
import { runPendingChecks } from "../../src/jobs/checks";
import { verifyReceipt } from "../../src/features/receipts/receipts.verify";
import pkg from "../../package.json" with { type: "json" };
import { useTestApp } from "../helpers/suite-app";

// AIP-1 statements the server once fell short of: one test each, quoting the AIP-1 line it checks
// (and the ledger escrow attestation below). Elsewhere: oracle forms in
// test/verification/oracle-forms.e2e.test.ts; appeal by default and votes from the deadline in
// test/verification/aip1-voting.int.test.ts; bundles in test/specs/specs.int.test.ts.

const t = useTestApp();

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

describe('AIP-1 §3: "content_hash": "0x... (sha256 of content_uri target)"', () => {
  it("answers content_hash in the 0x form whatever form came in (0x, bare hex, sha256:)", async () => {
    const { mission } = await openMission(t);
    const solver = await signIn(t);
    for (const [i, form] of [
      (h: string) => `0x${h.toUpperCase()}`,
      (h: string) => h,
      (h: string) => `sha256:${h}`,
    ].entries()) {
      const content = `answer ${i}`;
      const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
        token: solver.token,
        body: { content, content_hash: form(sha(content)) },
      });
      expect(r.status, r.text).toBe(201);
      expect(r.body.content_hash).toBe(`0x${sha(content)}`);
      expect(
        (await t.call("GET", `/missions/${mission.id}/submissions/${r.body.id}`, { token: solver.token })).body
          .content_hash,
      ).toBe(`0x${sha(content)}`);
    }
  });

  it('§4.2 "target_hash": "0x... (optional — exact SHA-256 match against submitted content)" is served in the 0x form too', async () => {
    for (const given of [`sha256:${sha("k")}`, sha("k").toUpperCase(), `0x${sha("k")}`]) {
      const { mission } = await openMission(t, {
        verification: { type: "first_valid_match", params: { target_hash: given } },
      });
      expect(mission.verification.params.target_hash).toBe(`0x${sha("k")}`);
      // and it still decides: the matching content wins
      const solver = await signIn(t);
      const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
        token: solver.token,
        body: { content: "k" },
      });
      expect(r.body.status, r.text).toBe("accepted");
    }
  });
});

describe('AIP-1 §6.1: "Resolved mission and submission representations … SHOULD include a dereferenceable receipt_uri"', () => {
  it("every winner in resolution.winners[] and every paid submission links its own receipt", async () => {
    const { creator, mission } = await openMission(t, {
      verification: { type: "creator_judges", params: { max_winners: 2 } },
    });
    const subs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await signIn(t);
      subs.push(
        (
          await t.call("POST", `/missions/${mission.id}/submissions`, {
            token: a.token,
            body: { content: `work ${i}` },
          })
        ).body.id,
      );
    }
    const before = await t.call("GET", `/missions/${mission.id}/submissions/${subs[0]}`, { token: creator.token });
    expect(before.body.receipt_uri).toBeNull();
    const r = await t.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: subs[0] }, { submission_id: subs[1] }] },
    });
    expect(r.status, r.text).toBe(200);
    const winners = r.body.resolution.winners as { submission_id: string; receipt_uri: string }[];
    expect(winners.map((w) => w.submission_id).sort()).toEqual([subs[0], subs[1]].sort());
    for (const w of winners) {
      expect(w.receipt_uri).toBe(`${t.deps.config.publicUrl}/missions/${mission.id}/receipts/${w.submission_id}`);
      const receipt = await t.call("GET", new URL(w.receipt_uri).pathname);
      expect(receipt.status).toBe(200);
      expect(receipt.body.submission_id).toBe(w.submission_id);
      const sub = await t.call("GET", `/missions/${mission.id}/submissions/${w.submission_id}`);
      expect(sub.body.receipt_uri).toBe(w.receipt_uri);
    }
    const loser = await t.call("GET", `/missions/${mission.id}/submissions/${subs[2]}`);
    expect(loser.body.receipt_uri).toBeNull();
  });

  it('"keep old public keys discoverable": a receipt re-signed after rotation carries an issued_at the new key covers', async () => {
    const { creator, mission } = await openMission(t);
    const a = await signIn(t);
    const sub = (
      await t.call("POST", `/missions/${mission.id}/submissions`, { token: a.token, body: { content: "rotating" } })
    ).body.id;
    await t.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: sub }] },
    });
    const first = (await t.call("GET", `/missions/${mission.id}/receipts/${sub}`)).body;
    // Rotate: a new active key from a later time, the old one retired then (what a restart does).
    const { keyringFrom, newKeyRecord } = await import("../../src/lib/receipt-keys");
    const old = t.deps.receiptKeys;
    t.clock.advance(10 * 86_400_000);
    const fresh = keyringFrom([
      newKeyRecord(t.clock.now(), [old.active.keyId]),
      { ...old.published[0]!, valid_until: t.clock.now().toISOString() },
    ]);
    t.deps.receiptKeys = fresh;
    try {
      const manifest = (await t.call("GET", "/.well-known/oabp.json")).body;
      const again = (await t.call("GET", `/missions/${mission.id}/receipts/${sub}`)).body;
      expect(again.signature.key_id).toBe(fresh.active.keyId);
      expect(Date.parse(again.issued_at)).toBeGreaterThanOrEqual(Date.parse(fresh.published[0]!.valid_from));
      expect(await verifyReceipt(again, manifest)).toMatchObject({ valid: true });
      expect((await verifyReceipt(first, manifest)).reasons).toEqual([]); // the old one still verifies
      // A document dated before its key's valid_from is refused (what the re-dating prevents).
      const { signReceipt } = await import("../../src/lib/receipt-sign");
      const { digest: _d, signature: _s, ...body } = again;
      const backdated = signReceipt({ ...body, issued_at: first.issued_at }, t.deps.receiptKeys);
      expect((await verifyReceipt(backdated, manifest)).reasons).toContain("key_not_valid_at_issued_at");
    } finally {
      t.deps.receiptKeys = old;
    }
  });
});

describe('AIP-1 §7.5.1: "User-Agent header of the form <name>/<version> (+<url>)"', () => {
  it("outbound requests carry the full semantic version and a (+url) to the agent card", async () => {
    expect(userAgent("https://example.org/")).toBe(
      `oabp-server/${pkg.version} (+https://example.org/.well-known/agent-card.json)`,
    );
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
    const rx = await startReceiver({ "/deliverable": () => ({ status: 200, body: "hello" }) });
    try {
      const r = await t.deps.fetcher.fetch(`${rx.base}/deliverable`);
      expect(r.ok).toBe(true);
      expect(rx.at("/deliverable")[0]!.headers["user-agent"]).toBe(
        `oabp-server/${pkg.version} (+${t.deps.config.publicUrl}/.well-known/agent-card.json)`,
      );
    } finally {
      await rx.close();
    }
  });
});

describe('AIP-1 §8: "returning at minimum {\\"agent_id\\": \\"...\\", \\"aigen_balance\\": <int>}"; §9 "chains": ["string (EVM chain name, e.g. \'base\', \'optimism\')"]', () => {
  it("aigen_balance is a JSON integer (base units of the primary ledger asset) on the profile and the balance sub-resource", async () => {
    const a = await signIn(t);
    await credit(t, a.address, 123_456_789n);
    for (const p of [`/agents/${a.address}`, `/api/agents/${a.address}/balance`]) {
      const r = await t.call("GET", p);
      expect(r.text).toMatch(/"aigen_balance":123456789[,}]/);
      expect(Number.isInteger(r.body.aigen_balance)).toBe(true);
    }
    const bal = (await t.call("GET", `/agents/${a.address}/balance`)).body;
    expect(bal).toMatchObject({ asset: "USDC", balances: [{ asset: "USDC", available: "123456789" }] });
  });

  it("payment_options.chains names EVM chains only; the ledger rail is described apart", async () => {
    const m = (await t.call("GET", "/.well-known/oabp.json")).body;
    expect(m.payment_options.chains).toEqual([]); // no base rail configured in this app
    expect(m.payment_options.chains).not.toContain("ledger");
    expect(m.payment_options.ledger).toMatchObject({ enabled: true, assets: ["USDC"] });
  });
});

describe('AIP-1 §4.2: "The first submission whose content_hash matches a creator-supplied target hash, or whose content_uri returns a value satisfying a creator-supplied predicate, wins"', () => {
  // With both target_hash and predicate_uri, a match on either wins (the sentence reads as OR).
  async function both(predicate: (n: number) => { status: number; body?: string }) {
    const rx = await startReceiver({ "/predicate": predicate });
    const { creator, mission } = await openMission(t, {
      verification: {
        type: "first_valid_match",
        params: { target_hash: `0x${sha("the key")}`, predicate_uri: "https://predicate.example/check" },
      },
    });
    // Point the stored predicate at the local server (creation only takes https; see fvm-remote).
    const [row] = await t.deps.database.db
      .select({ p: missions.verificationParams })
      .from(missions)
      .where(eq(missions.id, mission.id));
    await t.deps.database.db
      .update(missions)
      .set({ verificationParams: { ...row!.p, predicate_uri: `${rx.base}/predicate` } })
      .where(eq(missions.id, mission.id));
    return { rx, creator, mission };
  }
  const submit = async (missionId: string, content: string) => {
    const a = await signIn(t);
    const r = await t.call("POST", `/missions/${missionId}/submissions`, { token: a.token, body: { content } });
    expect(r.status, r.text).toBe(201);
    return r.body.id as string;
  };

  it("a target_hash match wins even when the predicate says no", async () => {
    const { rx, mission } = await both(() => ({ status: 200, body: JSON.stringify({ valid: false }) }));
    try {
      const id = await submit(mission.id, "the key");
      await runPendingChecks(t.deps);
      expect((await t.call("GET", `/missions/${mission.id}`)).body).toMatchObject({
        status: "resolved",
        resolution: { winner_submission_id: id },
      });
    } finally {
      await rx.close();
    }
  });

  it("a predicate match wins even when the hash differs; with neither, the submission is held for the default outcome", async () => {
    const { rx, mission } = await both((n) =>
      n === 1
        ? { status: 200, body: JSON.stringify({ valid: false }) }
        : { status: 200, body: JSON.stringify({ valid: true }) },
    );
    try {
      const bad = await submit(mission.id, "not the key");
      await runPendingChecks(t.deps);
      // The creator's predicate said no: held, not rejected (docs/decisions.md "Predicates").
      expect((await t.call("GET", `/missions/${mission.id}/submissions/${bad}`)).body).toMatchObject({
        status: "pending",
        reason: "held_for_default",
      });
      const good = await submit(mission.id, "another answer");
      await runPendingChecks(t.deps);
      expect((await t.call("GET", `/missions/${mission.id}`)).body).toMatchObject({
        status: "resolved",
        resolution: { winner_submission_id: good },
      });
    } finally {
      await rx.close();
    }
  });

  it("target_hash with an inline expected: either matching wins too", async () => {
    const { mission } = await openMission(t, {
      verification: {
        type: "first_valid_match",
        params: { target_hash: `0x${sha("exact bytes")}`, expected: "verdict: safe" },
      },
    });
    const a = await signIn(t);
    const r = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: a.token,
      body: { content: "The verdict: SAFE" },
    });
    expect(r.body.status, r.text).toBe("accepted");
  });
});

describe('AIP-1 §6: "Off-chain with provable balance (treasury custody + signed attestation)"', () => {
  const attestation = async () => {
    t.clock.advance(60_000); // past the per-instance reuse window
    const r = await t.call("GET", "/escrow/attestation");
    expect(r.status, r.text).toBe(200);
    return r.body;
  };
  /** The heads_digest rule, recomputed from the ledger rows. */
  const recompute = async (asset: string) => {
    const { ledgerAccounts } = await import("../../src/db/schema/index");
    const rows = (await t.deps.database.db.select().from(ledgerAccounts)).filter(
      (r) => r.account.startsWith("escrow:") && r.asset === asset && BigInt(r.balance) > 0n,
    );
    rows.sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
    return {
      total: rows.reduce((s, r) => s + BigInt(r.balance), 0n).toString(),
      digest: `sha256:${sha(rows.map((r) => `${r.account}:${r.seq}:${r.headHash}`).join("\n"))}`,
      n: rows.length,
    };
  };

  it("a signed per-asset total and hash-chain heads digest that verify with the manifest key alone; GET /missions/{id}/escrow answers on the ledger rail", async () => {
    const before = await attestation();
    const { creator, mission } = await openMission(t, { reward: { asset: "USDC", amount: "70000000" } });
    const after = await attestation();
    const usdc = (d: {
      assets: { asset: string; escrowed_total: string; escrow_accounts: number; heads_digest: string }[];
    }) => d.assets.find((a) => a.asset === "USDC")!;
    expect(BigInt(usdc(after).escrowed_total) - BigInt(usdc(before).escrowed_total)).toBe(70_000_000n);
    expect(usdc(after).escrow_accounts - usdc(before).escrow_accounts).toBe(1);
    const expected = await recompute("USDC");
    expect(usdc(after)).toMatchObject({
      escrowed_total: expected.total,
      escrow_accounts: expected.n,
      heads_digest: expected.digest,
    });
    expect(after).toMatchObject({ type: "oabp.escrow_attestation", issuer: t.deps.config.publicUrl, rail: "ledger" });

    // The signature: JCS of the document without digest and signature, ed25519, key from the manifest.
    const { createPublicKey, verify } = await import("node:crypto");
    const canonicalize = (await import("canonicalize")).default;
    const manifest = (await t.call("GET", "/.well-known/oabp.json")).body;
    const key = manifest.receipt_signing_keys.find((k: { key_id: string }) => k.key_id === after.signature.key_id);
    const { digest, signature, ...payload } = after;
    const bytes = Buffer.from(canonicalize(payload)!);
    expect(digest).toBe(`sha256:${createHash("sha256").update(bytes).digest("hex")}`);
    const pub = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: key.public_key }, format: "jwk" });
    expect(verify(null, bytes, pub, Buffer.from(signature.value, "base64url"))).toBe(true);
    expect(
      verify(
        null,
        Buffer.from(canonicalize({ ...payload, assets: [] })!),
        pub,
        Buffer.from(signature.value, "base64url"),
      ),
    ).toBe(false);
    expect(manifest.payment_options.ledger.escrow_attestation).toBe("/escrow/attestation");

    // The mission's own escrow account: its head is one of those the digest covers.
    const e = await t.call("GET", `/missions/${mission.id}/escrow`);
    expect(e.status, e.text).toBe(200);
    expect(e.body).toMatchObject({
      mission_id: mission.id,
      rail: "ledger",
      escrow: null,
      ledger: { account: `escrow:${mission.id}`, asset: "USDC", balance: "70000000", seq: 1 },
    });
    expect(e.body.ledger.head_hash).toBe(e.body.ledger.entries.at(-1).hash);

    // Paid out: the account empties and leaves the attested set.
    const a = await signIn(t);
    const sub = (
      await t.call("POST", `/missions/${mission.id}/submissions`, { token: a.token, body: { content: "x" } })
    ).body.id;
    await t.call("POST", `/missions/${mission.id}/award`, {
      token: creator.token,
      body: { winners: [{ submission_id: sub }] },
    });
    const paid = await attestation();
    expect(BigInt(usdc(paid).escrowed_total)).toBe(BigInt(usdc(before).escrowed_total));
    expect(usdc(paid).heads_digest).toBe((await recompute("USDC")).digest);
    expect((await t.call("GET", `/missions/${mission.id}/escrow`)).body.ledger.balance).toBe("0");
  });
});
