import { asc, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { agents } from "../../src/db/schema/index";
import { effectiveRating } from "../../src/features/reputation/decay";
import { purgeRatingVersions } from "../../src/features/reputation/reputation.history";
import { materialiseDecayBatch } from "../../src/features/reputation/reputation.service";
import { expectError } from "../helpers/errors";
import { useTestApp } from "../helpers/suite-app";
import { DAY, T0, addr, at, readBadge, seedAgents, type Seed } from "./rating-seed";

// The rating-ordered lists (GET /leaderboard, GET /agents) through HTTP on a real database: order,
// keyset and snapshot cursors, the activity floor, decay; the rating versions' purge.

const t = useTestApp();
const seed = (rows: Seed[]) => seedAgents(t, rows);
beforeEach(() => t.clock.set(T0));

describe("GET /leaderboard and GET /agents", () => {
  beforeEach(async () => {
    await t.deps.database.db.execute(sql`delete from agents`);
  });

  const page = (path: string) =>
    t.call("GET", path).then((r) => {
      expect(r.status, r.text).toBe(200);
      return r.body as {
        agents: { agent_id: string; rating: number; win_rate: number | null }[];
        next_cursor: string | null;
        as_of: string;
      };
    });

  it("rating order (ties by address), the documented entry shape, at / and /api", async () => {
    await seed([
      { id: addr(3), rating: 1500, lastActiveAt: at(-DAY), completed: 3, attempted: 4, displayName: "Three" },
      { id: addr(1), rating: 1500, lastActiveAt: at(-DAY), completed: 1, attempted: 1 },
      { id: addr(2), rating: 1620, lastActiveAt: at(-2 * DAY), completed: 2, attempted: 3 },
      { id: addr(4), rating: 1390, lastActiveAt: null, completed: 1, attempted: 5 },
    ]);
    const body = await page("/leaderboard");
    expect(body.agents.map((a) => a.agent_id)).toEqual([addr(2), addr(1), addr(3), addr(4)]);
    expect(body.agents[2]).toEqual({
      agent_id: addr(3),
      display_name: "Three",
      rating: 1500,
      missions_completed: 3,
      missions_attempted: 4,
      win_rate: 0.75,
      last_active_at: at(-DAY).toISOString(),
    });
    expect(body.agents[3]).toMatchObject({ win_rate: 0.2, last_active_at: null });
    expect(body).toMatchObject({ next_cursor: null, as_of: T0 });
    expect(await page("/api/leaderboard")).toEqual(body);
    expect(await page("/agents")).toEqual(body);
  });

  it("keyset pages: every agent exactly once, in order, whatever the page size", async () => {
    const rows: Seed[] = [];
    for (let i = 1; i <= 23; i++)
      rows.push({
        id: addr(0x100 + i),
        rating: 1400 + (i % 5) * 10,
        lastActiveAt: at(-(i % 4) * 20 * DAY),
        completed: 1 + (i % 3),
      });
    await seed(rows);
    const expected = rows
      .map((r) => ({
        id: r.id,
        rating: effectiveRating(
          { now: at(0) },
          { rating: r.rating, lastActiveAt: r.lastActiveAt ?? null, decayWeeksApplied: 0 },
        ),
      }))
      .sort((a, b) => b.rating - a.rating || (a.id < b.id ? -1 : 1));
    expect(new Set(expected.map((e) => e.rating)).size).toBeLessThan(expected.length); // ties exist

    for (const limit of [1, 4, 7, 23, 100]) {
      const seen: { agent_id: string; rating: number }[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const body = await page(`/leaderboard?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
        expect(body.agents.length).toBeLessThanOrEqual(limit);
        seen.push(...body.agents);
        cursor = body.next_cursor;
        pages++;
      } while (cursor && pages < 50);
      expect(new Set(seen.map((s) => s.agent_id)).size, `limit ${limit}`).toBe(seen.length);
      expect(
        seen.map((s) => ({ id: s.agent_id, rating: s.rating })),
        `limit ${limit}`,
      ).toEqual(expected);
      expect(pages).toBe(Math.max(1, Math.ceil(expected.length / limit)));
    }
  });

  it("activity floor (Sybil): no completed mission → not on /leaderboard; min_missions and active_within_days filter", async () => {
    await seed([
      { id: addr(0x201), rating: 1900, lastActiveAt: at(-DAY), completed: 0, attempted: 0 }, // a farm account, never won
      { id: addr(0x202), rating: 1900, lastActiveAt: at(-DAY), completed: 0, attempted: 6 }, // entered, never won
      { id: addr(0x203), rating: 1450, lastActiveAt: at(-DAY), completed: 1, attempted: 2 },
      { id: addr(0x204), rating: 1440, lastActiveAt: at(-40 * DAY), completed: 5, attempted: 5 },
    ]);
    const ids = async (path: string) => (await page(path)).agents.map((a) => a.agent_id);
    expect(await ids("/leaderboard")).toEqual([addr(0x203), addr(0x204)]);
    expect(await ids("/agents")).toEqual([addr(0x201), addr(0x202), addr(0x203), addr(0x204)]);
    expect(await ids("/leaderboard?min_missions=0")).toEqual(await ids("/agents"));
    expect(await ids("/agents?min_missions=1")).toEqual(await ids("/leaderboard"));
    expect(await ids("/leaderboard?min_missions=2")).toEqual([addr(0x204)]);
    expect(await ids("/leaderboard?active_within_days=30")).toEqual([addr(0x203)]);
    expect(await ids("/agents?active_within_days=41")).toEqual([addr(0x201), addr(0x202), addr(0x203), addr(0x204)]);
  });

  it("orders by the decayed rating: an idle high-rated agent drops below an active one once decay bites", async () => {
    const idle = addr(0x301);
    const active = addr(0x302);
    await seed([
      { id: idle, rating: 1500, lastActiveAt: at(-6 * DAY), completed: 4 },
      { id: active, rating: 1496, lastActiveAt: at(0), completed: 2 },
    ]);
    expect((await page("/leaderboard")).agents).toMatchObject([
      { agent_id: idle, rating: 1500 },
      { agent_id: active, rating: 1496 },
    ]);

    // Four weeks on, the active agent has just acted again; the idle one owes 3 weeks (−6).
    t.clock.advance(28 * DAY);
    await t.deps.database.db.execute(
      sql`update agents set last_active_at = ${t.clock.now().toISOString()}::timestamptz where id = ${active}`,
    );
    const body = await page("/leaderboard");
    expect(body.agents).toMatchObject([
      { agent_id: active, rating: 1496 },
      { agent_id: idle, rating: 1494 },
    ]);
    expect(body.as_of).toBe(t.clock.now().toISOString());
    // The stored ratings alone would give the opposite order.
    const stored = await t.deps.database.db
      .select({ id: agents.id, rating: agents.rating })
      .from(agents)
      .orderBy(sql`${agents.rating} desc`);
    expect(stored.map((s) => s.id)).toEqual([idle, active]);
    // The badge, the profile and the list agree.
    expect(readBadge((await t.call("GET", `/agents/${idle}/badge.svg`)).text).texts[2]).toBe("1494");
    const profile = (await t.call("GET", `/agents/${idle}`)).body;
    expect({ rating: profile.rating, win_rate: profile.win_rate }).toEqual({
      rating: 1494,
      win_rate: body.agents[1]!.win_rate,
    });
  });

  it("a cursor pins the decay instant: an agent crossing a week boundary mid-paging is not shown twice", async () => {
    const crossing = addr(0x401);
    const steady = addr(0x402);
    await seed([
      { id: crossing, rating: 1500, lastActiveAt: at(-14 * DAY + 60_000), completed: 1 }, // a full idle week one minute from now
      { id: steady, rating: 1499, lastActiveAt: at(0), completed: 1 },
    ]);
    const p1 = await page("/leaderboard?limit=1");
    expect(p1.agents).toMatchObject([{ agent_id: crossing, rating: 1500 }]);
    t.clock.advance(120_000); // now `crossing` is 1498, below the cursor
    const p2 = await page(`/leaderboard?limit=1&cursor=${p1.next_cursor}`);
    expect(p2.agents).toMatchObject([{ agent_id: steady, rating: 1499 }]);
    const p3 = p2.next_cursor
      ? await page(`/leaderboard?limit=1&cursor=${p2.next_cursor}`)
      : { agents: [], next_cursor: null };
    expect(p3.agents).toEqual([]); // re-evaluated at the new instant, `crossing` (1498) would come again here
    expect(p3.next_cursor).toBeNull();
    expect(p2.as_of).toBe(p1.as_of);
    // A fresh first page is evaluated now.
    expect((await page("/leaderboard")).agents).toMatchObject([
      { agent_id: steady, rating: 1499 },
      { agent_id: crossing, rating: 1498 },
    ]);
    // Cursors expire after an hour rather than show stale ratings.
    t.clock.advance(3_600_000);
    const old = await t.call("GET", `/leaderboard?limit=1&cursor=${p1.next_cursor}`);
    expectError(old, 400, "INVALID_PARAMETER");
    expect(old.body.details).toMatchObject({ field: "cursor", reason: "cursor_expired" });
  });

  it("bad parameters → 400", async () => {
    const forged = Buffer.from(
      JSON.stringify({ a: Date.parse(T0), r: 1500, i: "robert'); drop table agents;--" }),
    ).toString("base64url");
    const future = Buffer.from(JSON.stringify({ a: Date.parse(T0) + DAY, s: "10:10:", r: 1500, i: addr(1) })).toString(
      "base64url",
    );
    // Snapshots Postgres would refuse (xmax < xmin, xip outside [xmin, xmax), unsorted, zero, > int64).
    const snaps = ["5:3:", "3:5:7", "3:9:6,4", "0:5:", "1:99999999999999999999:", "3:5:x"].map((s) =>
      Buffer.from(JSON.stringify({ a: Date.parse(T0) - 1000, s, r: 1500, i: addr(1) })).toString("base64url"),
    );
    for (const q of [
      "limit=0",
      "limit=101",
      "limit=x",
      "min_missions=-1",
      "min_missions=1.5",
      "active_within_days=0",
      "cursor=%%%",
      "cursor=bm9wZQ",
      `cursor=${forged}`,
      `cursor=${future}`,
      ...snaps.map((c) => `cursor=${c}`),
    ]) {
      expectError(await t.call("GET", `/leaderboard?${q}`), 400, "INVALID_PARAMETER");
      expectError(await t.call("GET", `/agents?${q}`), 400, "INVALID_PARAMETER");
    }
  });
});

describe("snapshot cursor: paging while ratings change", () => {
  beforeEach(async () => {
    await t.deps.database.db.execute(sql`delete from agents`);
  });

  const walk = async (path: string, limit: number, between: (pageNo: number) => Promise<void>) => {
    const seen: { agent_id: string; rating: number }[] = [];
    let cursor: string | null = null;
    let pageNo = 0;
    do {
      const r = await t.call("GET", `${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
      expect(r.status, r.text).toBe(200);
      seen.push(...(r.body.agents as { agent_id: string; rating: number }[]));
      cursor = r.body.next_cursor;
      await between(++pageNo);
    } while (cursor && pageNo < 100);
    return seen;
  };

  it("every agent exactly once, at the rating of the first page, while resolutions move ratings, agents appear and decay is written", async () => {
    const rows: Seed[] = [];
    for (let i = 1; i <= 30; i++)
      rows.push({
        id: addr(0x600 + i),
        rating: 1300 + i * 10,
        lastActiveAt: at(-(i % 3) * 10 * DAY),
        completed: 1 + (i % 2),
      });
    await seed(rows);
    const before = await walk("/agents", 30, async () => {});
    expect(before).toHaveLength(30);

    const moves = [
      async () => seed([{ id: addr(0x601), rating: 2000, lastActiveAt: at(0), completed: 5 }]), // bottom → top
      async () => seed([{ id: addr(0x61e), rating: 1000, lastActiveAt: at(0), completed: 2 }]), // top → bottom
      async () => seed([{ id: addr(0x6ff), rating: 1500, lastActiveAt: at(0), completed: 1 }]), // a new agent mid-list
      async () => {
        await t.deps.database.db.execute(
          sql`update agents set rating = rating + 7, missions_completed = missions_completed + 1 where id in (${addr(0x610)}, ${addr(0x611)}, ${addr(0x612)})`,
        );
      },
      async () => {
        await t.deps.database.db.execute(
          sql`update agents set last_active_at = ${at(0).toISOString()}::timestamptz where id = ${addr(0x614)}`,
        );
      }, // activity restarts decay
      async () => {
        t.clock.advance(60_000);
        expect(await materialiseDecayBatch(t.deps)).toBeGreaterThan(0);
      }, // time passes, the decay job writes what fell due
    ];
    const during = await walk("/agents", 4, async (p) => {
      for (const m of moves.slice((p - 1) * 2, p * 2)) await m();
    });
    const ids = during.map((a) => a.agent_id);
    expect(new Set(ids).size).toBe(ids.length); // no agent twice
    // Every agent of the snapshot comes exactly once, in the snapshot's order and at its rating.
    expect(during.map((a) => [a.agent_id, a.rating])).toEqual(before.map((a) => [a.agent_id, a.rating]));
    expect(ids).not.toContain(addr(0x6ff));

    // A fresh walk sees the new state.
    const now = await walk("/agents", 7, async () => {});
    expect(now[0]).toMatchObject({ agent_id: addr(0x601), rating: 2000 });
    expect(now.at(-1)).toMatchObject({ agent_id: addr(0x61e), rating: 1000 });
    expect(now.map((a) => a.agent_id)).toContain(addr(0x6ff));
  });

  it("the decay job finds due agents by decay_due_at (kept by the trigger) and leaves stored = visible rating", async () => {
    await seed([
      { id: addr(0x701), rating: 1500, lastActiveAt: at(-49 * DAY), completed: 1 }, // owes 6 weeks
      { id: addr(0x702), rating: 1500, lastActiveAt: at(-DAY), completed: 1 }, // nothing owed yet
      { id: addr(0x703), rating: 990, lastActiveAt: at(-400 * DAY), completed: 1 }, // below the floor: never
    ]);
    const due = async () =>
      (await t.deps.database.db.execute(
        sql`select id, (extract(epoch from decay_due_at) * 1000)::float8 as ms from agents order by id`,
      )) as unknown;
    const list = (r: unknown) =>
      (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as { id: string; ms: number | null }[];
    expect(list(await due()).map((r) => r.ms)).toEqual([
      at(-49 * DAY + 14 * DAY).getTime(),
      at(-DAY + 14 * DAY).getTime(),
      null,
    ]);
    expect(await materialiseDecayBatch(t.deps)).toBe(1);
    const after = await t.deps.database.db
      .select({ id: agents.id, rating: agents.rating, applied: agents.decayWeeksApplied })
      .from(agents)
      .orderBy(asc(agents.id));
    expect(after).toEqual([
      { id: addr(0x701), rating: 1488, applied: 6 },
      { id: addr(0x702), rating: 1500, applied: 0 },
      { id: addr(0x703), rating: 990, applied: 0 },
    ]);
    // Next step owed one week after the last one written.
    expect(list(await due())[0]!.ms).toBe(at(-49 * DAY + 14 * DAY + 6 * 7 * DAY).getTime());
    expect((await t.call("GET", "/leaderboard")).body.agents.map((a: { rating: number }) => a.rating)).toEqual([
      1500, 1488, 990,
    ]);
  });
});

describe("rating versions are purged once no cursor can need them", () => {
  it("keeps recent versions, drops those older than twice the cursor lifetime", async () => {
    const id = addr(0x801);
    await seed([{ id, rating: 1500, lastActiveAt: at(-DAY), completed: 1 }]);
    await seed([{ id, rating: 1510, lastActiveAt: at(-DAY), completed: 1 }]);
    const count = async () =>
      Number(
        ((r: unknown) => (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows))(
          await t.deps.database.db.execute(
            sql`select count(*)::int as n from agent_rating_versions where agent_id = ${id}`,
          ),
        ).map((x) => (x as { n: number }).n)[0],
      );
    expect(await count()).toBe(2); // the insert and the change
    await purgeRatingVersions(t.deps);
    expect(await count()).toBe(2);
    await t.deps.database.db.execute(
      sql`update agent_rating_versions set changed_at = now() - interval '2 hours 1 second' where agent_id = ${id}`,
    );
    await purgeRatingVersions(t.deps);
    expect(await count()).toBe(0);
  });
});
