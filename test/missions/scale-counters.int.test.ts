import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { reviewSummary } from "../../src/features/reviews/reviews.service";
import { openMission } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";

// What the read path takes from trigger-kept tables instead of aggregates and scans —
// the per-reviewee review counters and the (tag, mission) table — must equal what the
// aggregate / array would give, whoever writes the base rows.

const t = useTestApp();

const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? r : (r as { rows: T[] }).rows);
const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

async function aggregate(reviewee: string) {
  const [r] = rowsOf<{ count: number; average: number | null }>(
    await t.deps.database.db.execute(
      sql`select count(*)::int as count, round(avg(stars), 2)::float8 as average from reviews where reviewee = ${reviewee}`,
    ),
  );
  return { count: Number(r!.count), average: r!.count === 0 ? null : Number(r!.average) };
}

describe("review counters (review_stats)", () => {
  it("equal count and round(avg, 2) after inserts, star edits, a reviewee change and deletes", async () => {
    const a = addr(0xa1);
    const b = addr(0xa2);
    const ins = (id: string, mission: string, reviewer: string, reviewee: string, stars: number) =>
      t.deps.database.db.execute(sql`
      insert into reviews (id, mission_id, reviewer, reviewee, reviewer_role, stars, created_at, updated_at)
      values (${id}, ${mission}, ${reviewer}, ${reviewee}, 'creator', ${stars}, now(), now())`);
    const check = async () => {
      for (const who of [a, b]) expect(await reviewSummary(t.deps.database.db, who), who).toEqual(await aggregate(who));
    };
    await check(); // none yet: {0, null}
    expect(await reviewSummary(t.deps.database.db, a)).toEqual({ count: 0, average: null });
    await ins("rev_1", "mis_1", addr(1), a, 5);
    await ins("rev_2", "mis_2", addr(2), a, 4);
    await ins("rev_3", "mis_3", addr(3), a, 4);
    await ins("rev_4", "mis_4", addr(4), b, 1);
    await check();
    expect(await reviewSummary(t.deps.database.db, a)).toEqual({ count: 3, average: 4.33 });
    await t.deps.database.db.execute(sql`update reviews set stars = 1 where id = 'rev_1'`);
    await check();
    await t.deps.database.db.execute(sql`update reviews set reviewee = ${b} where id = 'rev_2'`);
    await check();
    await t.deps.database.db.execute(sql`delete from reviews where reviewee = ${a}`);
    await check();
    expect(await reviewSummary(t.deps.database.db, a)).toEqual({ count: 0, average: null });
    expect(await reviewSummary(t.deps.database.db, b)).toEqual({ count: 2, average: 2.5 });
  });
});

describe("mission tags table (mission_tags)", () => {
  it("mirrors missions.tags on create, edit and delete; ?tag= lists through it", async () => {
    const { mission } = await openMission(t, { tags: ["rare-tag-x", "search"] });
    const tagsOf = async (id: string) =>
      rowsOf<{ tag: string }>(
        await t.deps.database.db.execute(sql`select tag from mission_tags where mission_id = ${id} order by tag`),
      ).map((r) => r.tag);
    expect(await tagsOf(mission.id)).toEqual(["rare-tag-x", "search"]);
    const listed = await t.call("GET", "/missions?tag=rare-tag-x");
    expect(listed.status).toBe(200);
    expect(listed.body.missions.map((m: { id: string }) => m.id)).toEqual([mission.id]);
    expect((await t.call("GET", "/missions?tag=absent-tag")).body.missions).toEqual([]);

    await t.deps.database.db.execute(sql`update missions set tags = array['other']::text[] where id = ${mission.id}`);
    expect(await tagsOf(mission.id)).toEqual(["other"]);
    await t.deps.database.db.execute(sql`delete from missions where id = ${mission.id}`);
    expect(await tagsOf(mission.id)).toEqual([]);
  });
});
