import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestApp, type TestApp, walkMissionPages } from "../helpers/app";
import { credit, missionBody, signIn } from "../helpers/agents";
import { rewardPageRefs } from "../../src/features/missions/missions.queries";

// Narrow reward ranges are read one distinct amount at a time and narrow deadline
// windows one hour at a time (missions.queries.ts rewardPageRefs, rangeIds). Whatever the split — thin or thick
// slices at either end of a window, whole hours, a window past RANGE_STEPS hours, ranges with few
// or too many distinct amounts — every page walk must return exactly the missions a plain filter
// would, newest first, with no duplicates and no gaps.

const HOUR = 3_600_000;
let t: TestApp;
let creator: string;
let missions: { id: string; amount: bigint; deadline: number; open: boolean }[] = [];
let hour0: number;

beforeAll(async () => {
  t = await makeTestApp();
  const c = await signIn(t);
  creator = c.address;
  await credit(t, c.address, "100000000000");
  // Deadlines 23 minutes and 7 seconds apart over ~31 hours, from an hour boundary 30 days out;
  // a quarter of the missions share one amount, the rest have distinct ones.
  hour0 = (Math.floor(t.clock.now().getTime() / HOUR) + 30 * 24) * HOUR;
  for (let k = 0; k < 80; k++) {
    const amount = k % 4 === 0 ? 500_000_000n : 1_000_000_000n + BigInt(k);
    const deadline = hour0 + k * (23 * 60_000 + 7_000);
    const r = await t.call("POST", "/missions", {
      token: c.token,
      body: missionBody(t, {
        title: `Range mission ${k}`,
        reward: { asset: "USDC", amount: amount.toString() },
        deadline: new Date(deadline).toISOString(),
      }),
    });
    expect(r.status, r.text).toBe(201);
    missions.push({ id: r.body.id, amount, deadline, open: true });
  }
  // One voided mission: still public, no longer open.
  const voided = missions[9]!;
  expect((await t.call("POST", `/missions/${voided.id}/void`, { token: c.token })).status).toBe(200);
  voided.open = false;
  missions = [...missions].sort((a, b) => (a.id < b.id ? 1 : -1));
}, 120_000);
afterAll(async () => t?.close());

/** Every page of `query` (limit 4). */
const walk = (query: string) => walkMissionPages(t, `/missions?creator=${creator}&limit=4&${query}`);

const iso = (ms: number) => new Date(ms).toISOString();

describe("narrow ranges read per amount or per hour list exactly what a plain filter lists", () => {
  const windows: [string, number, number][] = [
    ["a thin slice of one hour", 5 * HOUR + 50 * 60_000, 5 * HOUR + 59 * 60_000],
    // Deadlines fall at 0:00:00, 0:23:07, 0:46:14 … 2:41:49 … 4:14:17, 4:37:24, 5:00:31 past hour0.
    ["thin slices at both ends, each holding a deadline", 2 * HOUR + 40 * 60_000, 4 * HOUR + 15 * 60_000],
    ["thick slices at both ends, each cutting a deadline off", 10 * 60_000, 4 * HOUR + 30 * 60_000],
    ["aligned whole hours", 6 * HOUR, 9 * HOUR - 1],
    ["a window ending on an hour boundary", 6 * HOUR + 40 * 60_000, 9 * HOUR],
    ["within 47 hours", -HOUR, 46 * HOUR],
    ["past RANGE_STEPS hours (the plain plan)", -10 * HOUR, 60 * HOUR],
    ["an instant that is one deadline", 3 * (23 * 60_000 + 7_000), 3 * (23 * 60_000 + 7_000)],
    ["an empty window (after > before)", 5 * HOUR, 4 * HOUR],
  ];
  it.each(windows)("deadline window: %s", async (_name, from, to) => {
    const [a, b] = [hour0 + from, hour0 + to];
    const expected = missions.filter((m) => m.deadline >= a && m.deadline <= b).map((m) => m.id);
    expect(await walk(`deadline_after=${iso(a)}&deadline_before=${iso(b)}`)).toEqual(expected);
    const open = missions.filter((m) => m.open && m.deadline >= a && m.deadline <= b).map((m) => m.id);
    expect(await walk(`status=open&deadline_after=${iso(a)}&deadline_before=${iso(b)}`)).toEqual(open);
  });

  const ranges: [string, bigint, bigint][] = [
    ["one amount shared by many", 500_000_000n, 500_000_000n],
    ["a few distinct amounts", 1_000_000_000n, 1_000_000_030n],
    ["a shared amount and distinct ones", 400_000_000n, 1_000_000_010n],
    ["more than RANGE_STEPS distinct amounts (the plain plan)", 1_000_000_000n, 2_000_000_000n],
    ["an amount nobody offers", 700_000_000n, 700_000_000n],
  ];
  it.each(ranges)("reward range: %s", async (_name, lo, hi) => {
    const expected = missions.filter((m) => m.amount >= lo && m.amount <= hi).map((m) => m.id);
    expect(expected.length === 0 || expected.length > 4 || lo === hi).toBe(true);
    expect(await walk(`reward_min=${lo}&reward_max=${hi}`)).toEqual(expected);
    const open = missions.filter((m) => m.open && m.amount >= lo && m.amount <= hi).map((m) => m.id);
    expect(await walk(`asset=USDC&status=open&reward_min=${lo}&reward_max=${hi}`)).toEqual(open);
    // The whole rows (feeds, the web): the same first page, read by the refs the range found.
    const feed = await t.call("GET", `/feed.xml?creator=${creator}&limit=4&reward_min=${lo}&reward_max=${hi}`);
    expect(feed.status).toBe(200);
    expect([...new Set(feed.text.match(/mis_[0-9A-Z]{26}/g) ?? [])]).toEqual(open.slice(0, 4));
  });

  it("a range page's refs key the document cache as a read by id does (the version a number)", async () => {
    const refs = await rewardPageRefs(t.deps.database.db, {
      rewardMin: "500000000",
      rewardMax: "500000000",
      pageRows: 5,
    });
    expect(refs?.map((r) => r.id)).toEqual(
      missions
        .filter((m) => m.amount === 500_000_000n)
        .slice(0, 5)
        .map((m) => m.id),
    );
    for (const r of refs ?? []) expect([typeof r.version, r.creator]).toEqual(["number", creator]);
  });

  it("a reward range and a deadline window together", async () => {
    const [a, b] = [hour0 + 2 * HOUR + 10 * 60_000, hour0 + 20 * HOUR];
    const expected = missions
      .filter((m) => m.amount === 500_000_000n && m.deadline >= a && m.deadline <= b)
      .map((m) => m.id);
    expect(expected.length).toBeGreaterThan(4);
    expect(
      await walk(`reward_min=500000000&reward_max=500000000&deadline_after=${iso(a)}&deadline_before=${iso(b)}`),
    ).toEqual(expected);
  });
});
