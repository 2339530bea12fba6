import { describe, expect, it } from "vitest";
import { credit, missionBody, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { useTestApp } from "../helpers/suite-app";

// GET /missions: bad query parameters answer 400, unknown ones are ignored, every filter works,
// and keyset pagination has no duplicates and no gaps even while missions are being created.

const GOLD = "0x" + "60".repeat(20);
const t = useTestApp({
  OABP_ASSETS: JSON.stringify([
    {
      symbol: "USDC",
      decimals: 6,
      spam_fee: "5000000",
      addresses: { base: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" },
    },
    { symbol: "GOLD", decimals: 0, spam_fee: "1", addresses: { base: GOLD } },
  ]),
});

type Creator = Awaited<ReturnType<typeof signIn>>;
const DAY = 86_400_000;

async function funded(): Promise<Creator> {
  const c = await signIn(t);
  await credit(t, c.address, "10000000000");
  await credit(t, c.address, "1000", "GOLD");
  return c;
}

async function create(c: Creator, over: Record<string, unknown> = {}): Promise<{ id: string }> {
  const r = await t.call("POST", "/missions", { token: c.token, body: missionBody(t, over) });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.body;
}

const ids = (r: { body: { missions: { id: string }[] } }) => r.body.missions.map((m) => m.id);

async function list(query: string) {
  const r = await t.call("GET", `/missions?${query}`);
  expect(r.status, r.text).toBe(200);
  return r;
}

/** Follows next_cursor to the end; `between` runs after the first page. */
async function allPages(query: string, between?: () => Promise<void>) {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r = await list(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(r.body.missions.length).toBeLessThanOrEqual(3);
    seen.push(...ids(r));
    cursor = r.body.next_cursor;
    if (++pages === 1 && between) await between();
  } while (cursor && pages < 100);
  return { seen, pages };
}

describe("GET /missions rejects bad query parameters", () => {
  it.each([
    ["limit=0"],
    ["limit=101"],
    ["limit=abc"],
    ["limit=1.5"],
    ["status=pending_escrow"],
    ["status=bogus"],
    ["status=open,bogus"],
    ["cursor=garbage"],
    [`cursor=${Buffer.from("mis_notanid").toString("base64url")}`],
    ["creator=0x123"],
    ["creator=bob"],
    ["reward_min=x"],
    ["reward_max=-1"],
    ["deadline_after=yesterday"],
    ["deadline_before=2026-13-01"],
    ["verification_type=vibes"],
  ])("%s → 400 INVALID_PARAMETER", async (query) => {
    expectError(await t.call("GET", `/missions?${query}`), 400, "INVALID_PARAMETER");
    expectError(await t.call("GET", `/api/missions?${query}`), 400, "INVALID_PARAMETER");
  });

  it("an unknown query parameter is 400 naming it; campaign tags and api_key pass (docs/decisions.md)", async () => {
    const c = await funded();
    const m = await create(c);
    const r = await list(`utm_source=x&fbclid=y&creator=${c.address}&api_key=whatever-unbound`);
    expect(ids(r)).toEqual([m.id]);
    const bad = await t.call("GET", `/missions?creater=${c.address}`);
    expect(bad.status).toBe(400);
    expect(bad.body.details).toMatchObject({ field: "creater", did_you_mean: "creator", in: "query" });
  });
});

describe("GET /missions/{id} and unknown paths", () => {
  it.each(["/missions/mis_01JZ0000000000000000000000", "/missions/garbage", "/api/missions/garbage"])(
    "%s → 404 NOT_FOUND",
    async (path) => {
      expectError(await t.call("GET", path), 404, "NOT_FOUND");
    },
  );

  it("an unknown path → JSON 404 listing the entry points", async () => {
    const r = await t.call("GET", "/no/such/thing");
    expectError(r, 404, "NOT_FOUND");
    expect(r.body.details.entry_points).toMatchObject({ missions: "/missions", mission: "/missions/{id}" });
  });
});

describe("GET /missions filters", () => {
  it("status: voided and open missions are told apart", async () => {
    const c = await funded();
    const a = await create(c);
    const b = await create(c);
    expect((await t.call("POST", `/missions/${a.id}/void`, { token: c.token })).status).toBe(200);
    expect(ids(await list(`creator=${c.address}&status=voided`))).toEqual([a.id]);
    expect(ids(await list(`creator=${c.address}&status=open`))).toEqual([b.id]);
    expect(ids(await list(`creator=${c.address}&status=open,voided`))).toEqual([b.id, a.id]);
    expect(ids(await list(`creator=${c.address}&status=resolved`))).toEqual([]);
  });

  it("verification_type", async () => {
    const c = await funded();
    const judged = await create(c);
    const matched = await create(c, { verification: { type: "first_valid_match", params: { expected: "42" } } });
    expect(ids(await list(`creator=${c.address}&verification_type=first_valid_match`))).toEqual([matched.id]);
    expect(ids(await list(`creator=${c.address}&verification_type=creator_judges`))).toEqual([judged.id]);
    expect(ids(await list(`creator=${c.address}&verification_type=oracle`))).toEqual([]);
  });

  it("asset, by symbol in any case or by contract address", async () => {
    const c = await funded();
    const usdc = await create(c);
    const gold = await create(c, { reward: { asset: "gold", amount: "10" } });
    expect(ids(await list(`creator=${c.address}&asset=GOLD`))).toEqual([gold.id]);
    expect(ids(await list(`creator=${c.address}&asset=gold`))).toEqual([gold.id]);
    expect(ids(await list(`creator=${c.address}&asset=${GOLD.toUpperCase().replace("0X", "0x")}`))).toEqual([gold.id]);
    expect(ids(await list(`creator=${c.address}&asset=USDC`))).toEqual([usdc.id]);
    expect(ids(await list(`creator=${c.address}&asset=DAI`))).toEqual([]);
  });

  it("creator, in any case", async () => {
    const c = await funded();
    const other = await funded();
    const mine = await create(c);
    await create(other);
    expect(ids(await list(`creator=${c.address}`))).toEqual([mine.id]);
    expect(ids(await list(`creator=${c.account.address}`))).toEqual([mine.id]);
    expect(ids(await list(`creator=0x${c.address.slice(2).toUpperCase()}`))).toEqual([mine.id]);
  });

  it("tag", async () => {
    const c = await funded();
    const a = await create(c, { tags: ["rust", "parsing"] });
    const b = await create(c, { tags: ["python"] });
    expect(ids(await list(`creator=${c.address}&tag=rust`))).toEqual([a.id]);
    expect(ids(await list(`creator=${c.address}&tag=Python`))).toEqual([b.id]);
    expect(ids(await list(`creator=${c.address}&tag=go`))).toEqual([]);
  });

  it("q: word-prefix text search over title and description", async () => {
    const c = await funded();
    const quantum = await create(c, { title: "Quantum annealing schedule", description: "Tune the schedule." });
    const fourier = await create(c, { title: "Signal work", description: "Write a Fourier transform in Zig." });
    const q = (s: string) => list(`creator=${c.address}&q=${encodeURIComponent(s)}`).then(ids);
    expect(await q("quant")).toEqual([quantum.id]);
    expect(await q("QUANTUM")).toEqual([quantum.id]);
    expect(await q("fourier")).toEqual([fourier.id]);
    expect(await q("four zig")).toEqual([fourier.id]);
    expect(await q("schedule")).toEqual([quantum.id]);
    expect(await q("antum")).toEqual([]); // prefixes, not substrings
    expect(await q("quantum fourier")).toEqual([]); // all words must match
    expect(await q("!!!")).toEqual([]);
    expect(await q("o'reilly & | :*")).toEqual([]); // tsquery operators are not interpreted
  });

  it("reward_min / reward_max compare as integers, not strings", async () => {
    const c = await funded();
    // Whole USDC: 9, 100 and 1000 (the published minimum is 1 USDC); "9000000" > "100000000" as strings.
    const small = await create(c, { reward: { asset: "USDC", amount: "9000000" } });
    const mid = await create(c, { reward: { asset: "USDC", amount: "100000000" } });
    const big = await create(c, { reward: { asset: "USDC", amount: "1000000000" } });
    expect(ids(await list(`creator=${c.address}&reward_min=10000000`))).toEqual([big.id, mid.id]);
    expect(ids(await list(`creator=${c.address}&reward_max=100000000`))).toEqual([mid.id, small.id]);
    expect(ids(await list(`creator=${c.address}&reward_min=50000000&reward_max=500000000`))).toEqual([mid.id]);
    expect(ids(await list(`creator=${c.address}&reward_min=${((1n << 256n) - 1n).toString()}`))).toEqual([]);
    expect((await t.call("GET", `/missions?reward_min=${"9".repeat(78)}`)).status).toBe(400); // above uint256
  });

  it("deadline_after / deadline_before", async () => {
    const c = await funded();
    const base = t.clock.now().getTime();
    const at = (d: number) => new Date(base + d * DAY).toISOString();
    const soon = await create(c, { deadline: at(1) });
    const mid = await create(c, { deadline: at(3) });
    const late = await create(c, { deadline: at(10) });
    expect(ids(await list(`creator=${c.address}&deadline_after=${at(2)}`))).toEqual([late.id, mid.id]);
    expect(ids(await list(`creator=${c.address}&deadline_before=${at(5)}`))).toEqual([mid.id, soon.id]);
    expect(ids(await list(`creator=${c.address}&deadline_after=${at(2)}&deadline_before=${at(5)}`))).toEqual([mid.id]);
    const plus2 = new Date(base + 2 * DAY).toISOString().replace("Z", "+00:00");
    expect(ids(await list(`creator=${c.address}&deadline_after=${encodeURIComponent(plus2)}`))).toEqual([
      late.id,
      mid.id,
    ]);
  });
});

describe("GET /missions keyset pagination", () => {
  it("limit=3 over 7 missions: newest first, no duplicates, no gaps (filtered list)", async () => {
    const c = await funded();
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push((await create(c, { title: `Page mission ${i}` })).id);
    const { seen, pages } = await allPages(`creator=${c.address}&limit=3`);
    expect(pages).toBe(3);
    expect(seen).toEqual([...created].reverse());
  });

  it("the unfiltered list pages the same way across everyone's missions", async () => {
    const c = await funded();
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push((await create(c)).id);
    const { seen } = await allPages("limit=3");
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => created.includes(id))).toEqual([...created].reverse());
    expect([...seen].sort().reverse()).toEqual(seen);
  });

  it.each([
    ["filtered", true],
    ["unfiltered", false],
  ])(
    "missions created mid-paging (%s) cause no duplicates and no gaps among the original set",
    async (_n, filtered) => {
      const c = await funded();
      const original: string[] = [];
      for (let i = 0; i < 7; i++) original.push((await create(c)).id);
      const added: string[] = [];
      const query = filtered ? `creator=${c.address}&limit=3` : "limit=3";
      const { seen } = await allPages(query, async () => {
        t.clock.advance(1000);
        for (let i = 0; i < 3; i++) added.push((await create(c)).id);
      });
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.filter((id) => original.includes(id))).toEqual([...original].reverse());
      // the newer missions sort before the cursor, so a reader that already started never sees them
      expect(seen.filter((id) => added.includes(id))).toEqual([]);
      const fresh = await list(query);
      expect(ids(fresh)).toEqual([...added].reverse());
    },
  );

  it("next_cursor is null on the last page, also when it is exactly full", async () => {
    const c = await funded();
    for (let i = 0; i < 3; i++) await create(c);
    const r = await list(`creator=${c.address}&limit=3`);
    expect(r.body.missions).toHaveLength(3);
    expect(r.body.next_cursor).toBeNull();
  });

  it("pending_escrow missions never appear and voided ones stay listed", async () => {
    const c = await funded();
    const m = await create(c);
    await t.call("POST", `/missions/${m.id}/void`, { token: c.token });
    const r = await list("status=open,escrowed,resolved,voided&limit=100");
    expect(r.body.missions.every((x: { status: string }) => x.status !== "pending_escrow")).toBe(true);
    expect(ids(await list(`creator=${c.address}`))).toEqual([m.id]);
  });
});
