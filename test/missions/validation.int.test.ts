import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestApp, type TestApp } from "../helpers/app";
import { credit, missionBody, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { useTestApp } from "../helpers/suite-app";

// Every bad POST /missions input gets its JSON error code, and nothing is written: no mission
// appears for the creator and the creator's balance is unchanged (docs/design.md "Wire conventions").

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ OABP_RPC_URL: "http://127.0.0.1:9" }); // oracle missions need an RPC (never called here)
});
afterAll(async () => t?.close());

const FUNDS = "1000000000";
const UINT256_MAX = (1n << 256n) - 1n;

async function creatorWithFunds(app: TestApp = t) {
  const c = await signIn(app);
  await credit(app, c.address, FUNDS);
  return c;
}

async function expectNothingWritten(address: string, balance = FUNDS, app: TestApp = t) {
  const list = await app.call("GET", `/missions?creator=${address}`);
  expect(list.status).toBe(200);
  expect(list.body.missions).toEqual([]);
  expect((await app.call("GET", `/agents/${address}/balance`)).body.aigen_balance).toBe(Number(balance));
}

const fvm = (params: Record<string, unknown>) => ({ verification: { type: "first_valid_match", params } });
const peer = (t: TestApp, params: Record<string, unknown>) => ({
  verification: {
    type: "peer_vote",
    params: {
      voting_deadline: new Date(t.clock.now().getTime() + 14 * 86_400_000).toISOString(),
      vote_token: "USDC",
      min_vote: "1",
      quorum: "10",
      ...params,
    },
  },
});
const now = () => t.clock.now().getTime();

// [name, body overrides (a function of the app so times follow t.clock), status, code, details?]
const BAD: [string, (t: TestApp) => Record<string, unknown>, number, string, Record<string, unknown>?][] = [
  ["empty title", () => ({ title: "" }), 400, "INVALID_PARAMETER"],
  ["blank title", () => ({ title: "   " }), 400, "INVALID_PARAMETER"],
  ["title over 200 chars", () => ({ title: "x".repeat(201) }), 400, "INVALID_PARAMETER"],
  ["empty description", () => ({ description: "" }), 400, "INVALID_PARAMETER"],
  ["missing reward", () => ({ reward: undefined }), 400, "INVALID_PARAMETER"],
  ['amount "0"', () => ({ reward: { asset: "USDC", amount: "0" } }), 400, "INVALID_PARAMETER"],
  ['amount "-5"', () => ({ reward: { asset: "USDC", amount: "-5" } }), 400, "INVALID_PARAMETER"],
  ['amount "1.5"', () => ({ reward: { asset: "USDC", amount: "1.5" } }), 400, "INVALID_PARAMETER"],
  ['amount "abc"', () => ({ reward: { asset: "USDC", amount: "abc" } }), 400, "INVALID_PARAMETER"],
  ["amount as a number", () => ({ reward: { asset: "USDC", amount: 5 } }), 400, "INVALID_PARAMETER"],
  [
    "amount above uint256 max",
    () => ({ reward: { asset: "USDC", amount: (UINT256_MAX + 1n).toString() } }),
    400,
    "INVALID_PARAMETER",
  ],
  ["78-digit amount", () => ({ reward: { asset: "USDC", amount: "9".repeat(78) } }), 400, "INVALID_PARAMETER"],
  [
    "unknown asset",
    () => ({ reward: { asset: "DOGE", amount: "100" } }),
    422,
    "UNPROCESSABLE",
    { reason: "unknown_asset" },
  ],
  [
    'reward.chain "base" (rail not enabled)',
    () => ({ reward: { asset: "USDC", amount: "100000000", chain: "base" } }),
    422,
    "UNPROCESSABLE",
    { reason: "rail_not_enabled" },
  ],
  [
    "deadline in the past",
    () => ({ deadline: new Date(now() - 1000).toISOString() }),
    422,
    "UNPROCESSABLE",
    { reason: "deadline_in_past" },
  ],
  ["deadline equal to now", () => ({ deadline: new Date(now()).toISOString() }), 422, "UNPROCESSABLE"],
  ["deadline not ISO", () => ({ deadline: "next tuesday" }), 400, "INVALID_PARAMETER"],
  ["deadline as epoch number", () => ({ deadline: now() + 86_400_000 }), 400, "INVALID_PARAMETER"],
  ["unknown verification type", () => ({ verification: { type: "vibes", params: {} } }), 400, "INVALID_PARAMETER"],
  [
    "creator_judges max_winners 0",
    () => ({ verification: { type: "creator_judges", params: { max_winners: 0 } } }),
    400,
    "INVALID_PARAMETER",
  ],
  [
    'creator_judges max_winners "x"',
    () => ({ verification: { type: "creator_judges", params: { max_winners: "x" } } }),
    400,
    "INVALID_PARAMETER",
  ],
  ["first_valid_match without a rule", () => fvm({}), 400, "INVALID_PARAMETER"],
  ["first_valid_match bad target_hash", () => fvm({ target_hash: "0x1234" }), 400, "INVALID_PARAMETER"],
  [
    "first_valid_match http predicate_uri",
    () => fvm({ predicate_uri: "http://judge.example/check" }),
    400,
    "INVALID_PARAMETER",
  ],
  ['first_valid_match match_mode "glob"', () => fvm({ expected: "a*", match_mode: "glob" }), 400, "INVALID_PARAMETER"],
  [
    "regex with a backreference",
    () => fvm({ expected: "(a)\\1", match_mode: "regex" }),
    422,
    "UNPROCESSABLE",
    { reason: "regex_not_re2" },
  ],
  [
    "regex over 1024 chars",
    () => fvm({ expected: "a".repeat(1025), match_mode: "regex" }),
    422,
    "UNPROCESSABLE",
    { reason: "regex_too_long" },
  ],
  ["peer_vote missing voting_deadline", (t) => peer(t, { voting_deadline: undefined }), 400, "INVALID_PARAMETER"],
  [
    "peer_vote voting_deadline before deadline",
    (t) => peer(t, { voting_deadline: new Date(t.clock.now().getTime() + 86_400_000).toISOString() }),
    422,
    "UNPROCESSABLE",
    { reason: "voting_before_deadline" },
  ],
  [
    "peer_vote unknown vote_token",
    (t) => peer(t, { vote_token: "NOPE" }),
    422,
    "UNPROCESSABLE",
    { reason: "unknown_asset" },
  ],
  ['peer_vote min_vote "0"', (t) => peer(t, { min_vote: "0" }), 400, "INVALID_PARAMETER"],
  ['peer_vote quorum "x"', (t) => peer(t, { quorum: "x" }), 400, "INVALID_PARAMETER"],
  [
    "oracle bad oracle_contract",
    () => ({ verification: { type: "oracle", params: { oracle_contract: "0x123", oracle_method: "winner()" } } }),
    400,
    "INVALID_PARAMETER",
  ],
  [
    "oracle missing oracle_method",
    () => ({ verification: { type: "oracle", params: { oracle_contract: "0x" + "ab".repeat(20) } } }),
    400,
    "INVALID_PARAMETER",
  ],
  ["tag with invalid chars", () => ({ tags: ["ok", "no spaces!"] }), 400, "INVALID_PARAMETER"],
  ["more than 10 tags", () => ({ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }), 400, "INVALID_PARAMETER"],
];

describe("POST /missions rejects bad input and writes nothing", () => {
  it.each(BAD)("%s → %i %s", async (_name, over, status, code, details) => {
    const c = await creatorWithFunds();
    const r = await t.call("POST", "/missions", { token: c.token, body: missionBody(t, over(t)) });
    expectError(r, status, code);
    if (details) expect(r.body.details).toMatchObject(details);
    await expectNothingWritten(c.address);
  });

  it("no auth → 401 UNAUTHORIZED", async () => {
    const c = await creatorWithFunds();
    const r = await t.call("POST", "/missions", { body: missionBody(t, { creator: c.address }) });
    expectError(r, 401, "UNAUTHORIZED");
    await expectNothingWritten(c.address);
  });

  it("a creator field naming someone else → 403 FORBIDDEN", async () => {
    const c = await creatorWithFunds();
    const other = await signIn(t);
    const r = await t.call("POST", "/missions", { token: c.token, body: missionBody(t, { creator: other.address }) });
    expectError(r, 403, "FORBIDDEN");
    await expectNothingWritten(c.address);
    await expectNothingWritten(other.address, "0");
  });

  it("a creator field equal to the caller (any case) is accepted", async () => {
    const c = await creatorWithFunds();
    const r = await t.call("POST", "/missions", {
      token: c.token,
      body: missionBody(t, { creator: c.account.address }),
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.creator).toBe(c.address);
  });

  it("Content-Type text/plain → 415 UNSUPPORTED_MEDIA_TYPE (with and without Content-Length)", async () => {
    const c = await creatorWithFunds();
    const text = JSON.stringify(missionBody(t));
    for (const extra of [{} as Record<string, string>, { "content-length": String(Buffer.byteLength(text)) }]) {
      const r = await t.call("POST", "/missions", {
        token: c.token,
        body: text,
        headers: { "content-type": "text/plain", ...extra },
      });
      expectError(r, 415, "UNSUPPORTED_MEDIA_TYPE");
    }
    await expectNothingWritten(c.address);
  });

  it("malformed JSON → 400 INVALID_PARAMETER, details.reason malformed_json", async () => {
    const c = await creatorWithFunds();
    const r = await t.call("POST", "/missions", { token: c.token, body: '{"title": "x",' });
    expectError(r, 400, "INVALID_PARAMETER");
    expect(r.body.details).toMatchObject({ reason: "malformed_json" });
    await expectNothingWritten(c.address);
  });

  it("a balance that cannot cover reward + spam fee → 409 INSUFFICIENT_BALANCE", async () => {
    const c = await signIn(t);
    await credit(t, c.address, "100000000"); // the reward, but not the 5 USDC spam fee
    const r = await t.call("POST", "/missions", { token: c.token, body: missionBody(t) });
    expectError(r, 409, "INSUFFICIENT_BALANCE");
    await expectNothingWritten(c.address, "100000000");
  });

  it("an unknown oracle is accepted (201) with a warning on the mission", async () => {
    const c = await creatorWithFunds();
    const oracle = "0x" + "AB".repeat(20);
    const r = await t.call("POST", "/missions", {
      token: c.token,
      body: missionBody(t, {
        verification: { type: "oracle", params: { oracle_contract: oracle, oracle_method: "winner(bytes32)" } },
      }),
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.verification.params.oracle_contract).toBe(oracle.toLowerCase());
    expect(r.body.warnings).toEqual([expect.stringMatching(/oracle/)]);
    expect((await t.call("GET", `/missions/${r.body.id}`)).body.warnings).toEqual(r.body.warnings);
  });

  it("an allow-listed oracle (OABP_ORACLES) is accepted without a warning", async () => {
    const known = "0x" + "cd".repeat(20);
    const app = await makeTestApp({
      OABP_RPC_URL: "http://127.0.0.1:9",
      OABP_ORACLES: JSON.stringify([
        { chain: "base", address: known.toUpperCase().replace("0X", "0x"), method: "winner(bytes32)" },
      ]),
    });
    try {
      const c = await creatorWithFunds(app);
      const r = await app.call("POST", "/missions", {
        token: c.token,
        body: missionBody(app, {
          verification: { type: "oracle", params: { oracle_contract: known, oracle_method: "winner(bytes32)" } },
        }),
      });
      expect(r.status, r.text).toBe(201);
      expect(r.body.warnings).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it("the well-formed variants of each verification type are accepted", async () => {
    const c = await creatorWithFunds();
    const bodies = [
      fvm({ target_hash: "0x" + "AB".repeat(32) }),
      fvm({ predicate_uri: "https://judge.example/check" }),
      fvm({ expected: "^foo\\d+$", match_mode: "regex" }),
      peer(t, {}),
      { tags: Array.from({ length: 10 }, (_, i) => `t-${i}.x_y`) },
    ];
    for (const over of bodies) {
      const r = await t.call("POST", "/missions", {
        token: c.token,
        body: missionBody(t, { ...over, reward: { asset: "USDC", amount: "1000000" } }),
      });
      expect(r.status, r.text).toBe(201);
    }
    const list = await t.call("GET", `/missions?creator=${c.address}`);
    expect(list.body.missions).toHaveLength(bodies.length);
    expect(list.body.missions.at(-1).verification.params.target_hash).toBe("0x" + "ab".repeat(32)); // AIP-1 §3 form on the wire
  });
});

describe("POST /missions with a small body limit", () => {
  const small = useTestApp({ OABP_BODY_LIMIT_BYTES: "2048" });

  it("a ~4 KB body → 413 PAYLOAD_TOO_LARGE and nothing is written", async () => {
    const c = await creatorWithFunds(small);
    const body = JSON.stringify(missionBody(small, { description: "d".repeat(4000) }));
    for (const extra of [{} as Record<string, string>, { "content-length": String(Buffer.byteLength(body)) }]) {
      const r = await small.call("POST", "/missions", { token: c.token, body, headers: extra });
      expectError(r, 413, "PAYLOAD_TOO_LARGE");
    }
    await expectNothingWritten(c.address, FUNDS, small);
    const ok = await small.call("POST", "/missions", { token: c.token, body: missionBody(small) });
    expect(ok.status, ok.text).toBe(201);
  });
});

describe("Idempotency-Key on POST /missions", () => {
  it("same key + same body → the identical stored answer, one mission, Idempotent-Replayed: true", async () => {
    const c = await creatorWithFunds();
    const body = missionBody(t);
    const headers = { "idempotency-key": "create-1" };
    const first = await t.call("POST", "/missions", { token: c.token, body, headers });
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // the same body with its keys in another order is the same request
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const second = await t.call("POST", "/missions", { token: c.token, body: reordered, headers });
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const list = await t.call("GET", `/missions?creator=${c.address}`);
    expect(list.body.missions.map((m: { id: string }) => m.id)).toEqual([first.body.id]);
    expect((await t.call("GET", `/agents/${c.address}/balance`)).body.aigen_balance).toBe(
      Number(BigInt(FUNDS) - 105_000_000n),
    );
  });

  it("same key + different body → 422 UNPROCESSABLE; the first mission stays the only one", async () => {
    const c = await creatorWithFunds();
    const headers = { "idempotency-key": "create-2" };
    const first = await t.call("POST", "/missions", { token: c.token, body: missionBody(t), headers });
    expect(first.status).toBe(201);
    const r = await t.call("POST", "/missions", {
      token: c.token,
      body: missionBody(t, { title: "Another title" }),
      headers,
    });
    expectError(r, 422, "UNPROCESSABLE");
    expect((await t.call("GET", `/missions?creator=${c.address}`)).body.missions).toHaveLength(1);
  });

  it("keys are scoped to the caller: another creator may reuse the same key", async () => {
    const a = await creatorWithFunds();
    const b = await creatorWithFunds();
    const headers = { "idempotency-key": "shared-key" };
    const ra = await t.call("POST", "/missions", { token: a.token, body: missionBody(t), headers });
    const rb = await t.call("POST", "/missions", { token: b.token, body: missionBody(t), headers });
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(rb.body.id).not.toBe(ra.body.id);
    expect(rb.body.creator).toBe(b.address);
  });

  it.each([
    ["with a space", "has space"],
    ["over 255 chars", "k".repeat(256)],
  ])("a key %s → 400 and nothing is written", async (_n, key) => {
    const c = await creatorWithFunds();
    const r = await t.call("POST", "/missions", {
      token: c.token,
      body: missionBody(t),
      headers: { "idempotency-key": key },
    });
    expectError(r, 400, "INVALID_PARAMETER");
    await expectNothingWritten(c.address);
  });

  it("a failed request does not burn its key: a corrected retry with the same key runs", async () => {
    const c = await signIn(t);
    const headers = { "idempotency-key": "retry-after-topup" };
    const r1 = await t.call("POST", "/missions", { token: c.token, body: missionBody(t), headers });
    expectError(r1, 409, "INSUFFICIENT_BALANCE");
    await credit(t, c.address, FUNDS);
    const r2 = await t.call("POST", "/missions", { token: c.token, body: missionBody(t), headers });
    expect(r2.status, r2.text).toBe(201);
    expect(r2.headers.get("idempotent-replayed")).toBeNull();
  });
});
