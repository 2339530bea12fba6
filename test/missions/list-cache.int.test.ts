import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { missions } from "../../src/db/schema/index";
import { missionBody, openMission, signIn } from "../helpers/agents";
import { onRealPostgres } from "../helpers/db";
import { withSecondInstance } from "../helpers/second-instance";
import { useTestApp } from "../helpers/suite-app";

const t = useTestApp();

describe("mission list cache", () => {
  it("serves repeated lists from memory and shows a write at once on this instance", async () => {
    const { creator, mission } = await openMission(t);
    const q = `/missions?creator=${creator.address}`;
    const misses = t.deps.missionLists.misses;
    for (let i = 0; i < 5; i++)
      expect((await t.call("GET", q)).body.missions.map((m: { id: string }) => m.id)).toEqual([mission.id]);
    // Filled once: every later read finds the missions epoch unchanged.
    expect(t.deps.missionLists.misses - misses).toBe(1);
    const second = await t.call("POST", "/missions", {
      token: creator.token,
      body: missionBody(t, { title: "Second" }),
    });
    expect((await t.call("GET", q)).body.missions.map((m: { id: string }) => m.id)).toEqual([
      second.body.id,
      mission.id,
    ]);
    const solver = await signIn(t);
    await t.call("POST", `/missions/${mission.id}/submissions`, { token: solver.token, body: { content: "x" } });
    expect((await t.call("GET", q)).body.missions[1].submission_count).toBe(1);
  });

  it("drops cached lists when missions change behind the app's back (trigger → epoch bump on commit)", async () => {
    const { creator, mission } = await openMission(t);
    const q = `/missions?creator=${creator.address}`;
    expect((await t.call("GET", q)).body.missions[0].title).toBe("Find the key");
    await t.deps.database.db.update(missions).set({ title: "Renamed by SQL" }).where(eq(missions.id, mission.id));
    expect((await t.call("GET", q)).body.missions[0].title).toBe("Renamed by SQL"); // at once: no NOTIFY to wait for
  });

  it.runIf(onRealPostgres)("a write through one instance reaches another instance's cached lists", async () => {
    // A second app on the same database: its own cache.
    await withSecondInstance(t, 1 << 20, async (other) => {
      const { creator } = await openMission(t);
      const q = `/missions?creator=${creator.address}`;
      const read = async () => ((await (await other.request(q)).json()) as { missions: unknown[] }).missions.length;
      expect(await read()).toBe(1);
      expect(await read()).toBe(1); // cached on the other instance
      expect((await t.call("POST", "/missions", { token: creator.token, body: missionBody(t) })).status).toBe(201);
      expect(await read()).toBe(2); // at once: the epoch, read per request, has moved
    });
  });
});
