import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tagPageRefs } from "../../src/features/missions/missions.queries";
import { credit, missionBody, signIn } from "../helpers/agents";
import { makeTestApp, type TestApp, walkMissionPages } from "../helpers/app";

// A list filtered by one tag alone is read from the tag table in list order with a primary-key
// probe per entry (missions.queries.ts tagPageRefs), not by the planner's join: whatever the
// page size and cursor, it must return exactly the public missions carrying the tag, newest
// first, with no duplicates and no gaps — never a pending_escrow or hidden one (docs/decisions.md
// "Listing") — and the same pages as the general filter.

let t: TestApp;
let created: string[] = [];

beforeAll(async () => {
  t = await makeTestApp();
  const c = await signIn(t);
  await credit(t, c.address, "100000000000");
  for (let k = 0; k < 14; k++) {
    const r = await t.call("POST", "/missions", {
      token: c.token,
      body: missionBody(t, { title: `Tagged mission ${k}`, tags: k % 3 === 2 ? ["other"] : ["walkme", "other"] }),
    });
    expect(r.status, r.text).toBe(201);
    created.push(r.body.id);
  }
  created = created.sort().reverse();
}, 120_000);
afterAll(async () => t?.close());

const walk = (query: string) => walkMissionPages(t, `/missions?${query}`, 40);

const tagged = () => created.filter((id) => walkme.has(id));
let walkme = new Set<string>();

describe("a list filtered by one tag", () => {
  it("walks exactly the public missions with the tag, newest first, as the general filter does", async () => {
    const rows = (await t.deps.database.db.execute(
      sql`select mission_id from mission_tags where tag = 'walkme'`,
    )) as unknown as { mission_id: string }[] | { rows: { mission_id: string }[] };
    walkme = new Set((Array.isArray(rows) ? rows : rows.rows).map((r) => r.mission_id));
    expect(walkme.size).toBe(10);
    // One tagged mission hidden by the operator, one back to pending_escrow (no confirmed deposit):
    // neither may list. Written in SQL: the states, not the paths to them, are under test here.
    const [hidden, pending] = tagged().slice(2, 4);
    await t.deps.database.db.execute(sql`update missions set hidden_at = now() where id = ${hidden!}`);
    await t.deps.database.db.execute(sql`update missions set status = 'pending_escrow' where id = ${pending!}`);
    const expected = tagged().filter((id) => id !== hidden && id !== pending);
    expect(expected).toHaveLength(8);
    for (const limit of [1, 3, 8, 50]) {
      expect(await walk(`tag=walkme&limit=${limit}`), `limit ${limit}`).toEqual(expected);
      // The general filter (a status list keeps the planner's join) answers the same pages.
      expect(await walk(`tag=walkme&status=open&limit=${limit}`), `limit ${limit}`).toEqual(expected);
    }
    // The statement itself, not only the pages (the documents are read through the visibility
    // rule again, which would hide a statement that let a hidden mission through).
    const refs = async (before?: string) =>
      (await tagPageRefs(t.deps.database.db, { tag: "walkme", before, pageRows: 50 })).map((r) => r.id);
    expect(await refs()).toEqual(expected);
    expect(await refs(expected[3])).toEqual(expected.slice(4));
    expect(await walk("tag=WalkMe&limit=5")).toEqual(expected); // tags match lower-cased
    expect(await walk("tag=absent&limit=5")).toEqual([]);
  });
});
