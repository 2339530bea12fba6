import { Webhook } from "standardwebhooks";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptKeystore, encryptKeystore, loadAccount } from "../../packages/client/src/account";
import { OabpClient, type TokenStore } from "../../packages/client/src/client";
import { exitCodeFor, OabpError } from "../../packages/client/src/errors";
import { commitmentOf } from "../../packages/client/src/content";
import { followMission, followSearch } from "../../packages/client/src/follow";
import type { Session } from "../../packages/client/src/types";
import { verifyWebhook } from "../../packages/client/src/webhooks";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { ADMIN_TOKEN, makeTestApp, PUBLIC_URL, type TestApp } from "../helpers/app";

// The typed client against the real app (in process, its fetch is app.request; the injected
// clock drives SIWE issued-at and session expiry): sign-in, token caching and renewal,
// Idempotency-Key by default, pagination, typed errors, following; then the offline helpers.

let t: TestApp;
const sent: { method: string; path: string; headers: Headers }[] = [];
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t?.close());

function clientFor(opts: Partial<ConstructorParameters<typeof OabpClient>[0]> = {}) {
  const fetchVia = (async (url: string, init: RequestInit) => {
    sent.push({ method: init.method ?? "GET", path: new URL(url).pathname, headers: new Headers(init.headers) });
    return t.app.request(url, init);
  }) as typeof fetch;
  return new OabpClient({ baseUrl: PUBLIC_URL, fetch: fetchVia, now: () => t.clock.now(), ...opts });
}
const memoryStore = () => {
  const saved: Session[] = [];
  const store: TokenStore = { load: () => saved.at(-1), save: (s) => void saved.push(s) };
  return { store, saved };
};
const body = (title: string) => ({
  title,
  description: "d",
  reward: { asset: "USDC", amount: "1000000" },
  verification: { type: "creator_judges" as const, params: {} },
  deadline: new Date(t.clock.now().getTime() + 3 * 86_400_000).toISOString(),
  tags: ["sdk"],
});

describe("OabpClient", () => {
  it("signs in from an account when a write needs it, caches the session, renews it on expiry and after a 401", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { store, saved } = memoryStore();
    const c = clientFor({ account, tokenStore: store, adminToken: ADMIN_TOKEN });
    await c.credit(account.address, "100000000");
    const m = await c.createMission(body("first"));
    expect(m.creator).toBe(account.address.toLowerCase());
    expect(saved).toHaveLength(1);
    expect(saved[0]!.agent_id).toBe(account.address.toLowerCase());

    // A second client on the same store reuses the cached token: no new sign-in.
    const c2 = clientFor({ account, tokenStore: store });
    await c2.createMission(body("second"));
    expect(saved).toHaveLength(1);

    // Past the session's lifetime (24 h) the next write signs in again first.
    t.clock.advance(86_400_000 + 1000);
    await c2.createMission(body("third"));
    expect(saved).toHaveLength(2);

    // A token the server no longer knows: 401, sign in again, the same request replayed once.
    const stale = clientFor({
      account,
      session: {
        token: "oabp_unknown_token",
        agent_id: account.address.toLowerCase(),
        expires_at: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
      },
    });
    const before = sent.length;
    await stale.createMission(body("fourth"));
    const calls = sent.slice(before).map((s) => `${s.method} ${s.path}`);
    expect(calls).toEqual(["POST /missions", "POST /auth/nonce", "POST /auth/siwe", "POST /missions"]);
    // The replay carries the same Idempotency-Key, so it can never create twice.
    const keys = sent
      .slice(before)
      .filter((s) => s.path === "/missions")
      .map((s) => s.headers.get("idempotency-key"));
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });

  it("sends an Idempotency-Key on value-moving calls only; a retry with the same key replays", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const c = clientFor({ account, adminToken: ADMIN_TOKEN });
    await c.credit(account.address, "100000000");
    const before = sent.length;
    const a = await c.createMission(body("once"), { idempotencyKey: "retry-1" });
    const b = await c.createMission(body("once"), { idempotencyKey: "retry-1" });
    expect(b.id).toBe(a.id);
    await c.getMission(a.id);
    const calls = sent.slice(before);
    for (const s of calls) {
      const moving = s.method === "POST" && s.path === "/missions";
      expect(s.headers.has("idempotency-key"), `${s.method} ${s.path}`).toBe(moving);
    }
    expect((await c.balance(account.address)).aigen_balance).toBe(Number(100_000_000n - 1_000_000n - 5_000_000n)); // AIP-1 §8 integer
  });

  it("iterates pages, throws typed errors with the server's codes, follows a mission to its end", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const c = clientFor({ account, adminToken: ADMIN_TOKEN });
    await c.credit(account.address, "100000000");
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await c.createMission(body(`page ${i}`))).id);
    const seen = [];
    for await (const m of c.missions({ creator: account.address, limit: 2 })) seen.push(m.id);
    expect(seen.sort()).toEqual(ids.sort());

    const missing = await c.getMission("mis_nope").catch((e) => e);
    expect(missing).toBeInstanceOf(OabpError);
    expect(missing).toMatchObject({ status: 404, code: "NOT_FOUND" });
    expect(exitCodeFor(missing)).toBe(4);
    const poor = await c
      .createMission({ ...body("too rich"), reward: { asset: "USDC", amount: "999000000" } })
      .catch((e) => e);
    expect(poor).toMatchObject({ status: 409, code: "INSUFFICIENT_BALANCE" });
    const anon = await clientFor()
      .createMission(body("anonymous"))
      .catch((e) => e);
    expect(anon).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    expect(exitCodeFor(anon)).toBe(3);

    await c.voidMission(ids[0]!);
    const states = [];
    for await (const m of followMission(c, ids[0]!, { intervalMs: 0, maxPolls: 5 })) states.push(m.status);
    expect(states).toEqual(["voided"]);
  });
});

describe("OabpClient, more verbs", () => {
  it("commit-reveal with commitmentOf: the server accepts the commitment and matches the reveal", async () => {
    const creator = clientFor({ account: privateKeyToAccount(generatePrivateKey()), adminToken: ADMIN_TOKEN });
    await creator.credit((await creator.account())!.address, "100000000");
    const m = await creator.createMission({
      ...body("commit"),
      deadline: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
      verification: {
        type: "first_valid_match",
        params: { expected: "the answer is 42", commit_reveal: true, reveal_window_seconds: 3600 },
      } as never,
    });
    const solver = clientFor({ account: privateKeyToAccount(generatePrivateKey()) });
    const me = (await solver.agentId())!;
    await solver.commit(m.id, commitmentOf("The answer is 42.", me, "pepper-salt-one-0123456789"));
    t.clock.set(new Date(Date.parse(m.deadline) + 1000));
    await sweepDueMissions(t.deps); // the deadline opens the reveal window
    const wrong = await solver
      .submit(m.id, { content: "The answer is 42.", salt: "pepper-salt-two-0123456789" })
      .catch((e) => e);
    expect(wrong).toMatchObject({ status: 422, reason: "commitment_mismatch" });
    const revealed = await solver.submit(m.id, { content: "The answer is 42.", salt: "pepper-salt-one-0123456789" });
    expect(revealed.status).toBe("accepted");
  });

  it("webhooks: add, list (paged), delete; a search followed yields each mission once", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const c = clientFor({ account, adminToken: ADMIN_TOKEN });
    const w = await c.createWebhook({ url: "https://hooks.example/oabp", events: ["mission.resolved"] });
    expect(w.secret).toMatch(/^whsec_/);
    const listed = [];
    for await (const x of c.webhooks()) listed.push(x.id);
    expect(listed).toEqual([w.id]);
    await c.deleteWebhook(w.id);
    const after = [];
    for await (const x of c.webhooks()) after.push(x.id);
    expect(after).toEqual([]);

    await c.credit(account.address, "100000000");
    const a = await c.createMission(body("followed a"));
    const b = await c.createMission(body("followed b"));
    const seen = [];
    for await (const m of followSearch(c, { creator: account.address }, { intervalMs: 0, maxPolls: 3 }))
      seen.push(m.id);
    expect(seen).toEqual([a.id, b.id]); // oldest first, once each across polls
  });
});

describe("offline helpers", () => {
  it("verifyWebhook: the Standard Webhooks example, the official library's signatures, and every failure", () => {
    const example = {
      "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
      "webhook-timestamp": "1614265330",
      "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    };
    const at = new Date(1614265330_000);
    expect(
      verifyWebhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", example, '{"test": 2432232314}', { now: at }),
    ).toMatchObject({ ok: true, id: "msg_p5jXN8AQM9LWM0D4loKWxJek" });
    const secret = "whsec_" + Buffer.alloc(32, 7).toString("base64");
    const payload = JSON.stringify({
      id: "evt_1",
      type: "mission.resolved",
      timestamp: at.toISOString(),
      data: { mission_id: "mis_1" },
    });
    const headers = new Headers({
      "webhook-id": "evt_1",
      "webhook-timestamp": String(at.getTime() / 1000),
      "webhook-signature": new Webhook(secret).sign("evt_1", at, payload),
    });
    expect(verifyWebhook(secret, headers, payload, { now: at })).toMatchObject({
      ok: true,
      event: { type: "mission.resolved" },
    });
    expect(verifyWebhook(secret, headers, payload.replace("mis_1", "mis_2"), { now: at })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    expect(verifyWebhook(secret, headers, payload, { now: new Date(at.getTime() + 301_000) })).toEqual({
      ok: false,
      reason: "timestamp_out_of_tolerance",
    });
    expect(verifyWebhook("whsec_" + Buffer.alloc(32, 8).toString("base64"), headers, payload, { now: at })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    expect(verifyWebhook(secret, {}, payload, { now: at })).toEqual({ ok: false, reason: "missing_headers" });
  });

  it(
    "keystores: the Web3 Secret Storage test vectors (pbkdf2, scrypt), a round trip, a wrong password",
    { timeout: 60_000 },
    async () => {
      const key = "0x7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d";
      const pbkdf2 = {
        version: 3,
        crypto: {
          cipher: "aes-128-ctr",
          cipherparams: { iv: "6087dab2f9fdbbfaddc31a909735c1e6" },
          ciphertext: "5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46",
          kdf: "pbkdf2",
          kdfparams: {
            c: 262144,
            dklen: 32,
            prf: "hmac-sha256",
            salt: "ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd",
          },
          mac: "517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2",
        },
      };
      const scrypt = {
        version: 3,
        crypto: {
          cipher: "aes-128-ctr",
          cipherparams: { iv: "83dbcc02d8ccb40e466191a123791e0e" },
          ciphertext: "d172bf743a674da9cdad04534d56926ef8358534d458fffccd4e6ad2fbde479c",
          kdf: "scrypt",
          kdfparams: {
            dklen: 32,
            n: 262144,
            p: 8,
            r: 1,
            salt: "ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19",
          },
          mac: "2103ac29920d71da29f15d75b4a16dbe95cfd7ff8faea1056c33131d846e3097",
        },
      };
      expect(await decryptKeystore(pbkdf2, "testpassword")).toBe(key);
      expect(await decryptKeystore(scrypt, "testpassword")).toBe(key);
      const own = generatePrivateKey();
      const ks = await encryptKeystore(own, "pw", { n: 1024 });
      expect(ks.address).toBe(privateKeyToAccount(own).address.slice(2).toLowerCase());
      expect(await decryptKeystore(ks, "pw")).toBe(own);
      await expect(decryptKeystore(ks, "wrong")).rejects.toThrow("keystore: wrong password");
      await expect(loadAccount({ type: "private_key", privateKey: "0x1234" })).rejects.toThrow(/32 bytes/);
    },
  );
});
