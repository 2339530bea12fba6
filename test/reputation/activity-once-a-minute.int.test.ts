import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../../src/db/rows";
import { credit, missionBody, signIn } from "../helpers/agents";
import { submitAs } from "../helpers/judging";
import { useTestApp } from "../helpers/suite-app";

// docs/decisions.md "Activity once a minute": a write within a minute of the agent's last recorded
// activity (and last-seen) leaves the agent row alone — no update, no rating version.
const t = useTestApp();

async function agentRow(id: string) {
  const [r] = rowsOf<{ active: string; seen: string | null; versions: number }>(
    await t.deps.database.db.execute(sql`
      select last_active_at::text as active, last_seen_at::text as seen,
             (select count(*)::int from agent_rating_versions v where v.agent_id = a.id) as versions
        from agents a where id = ${id}`),
  );
  return r!;
}

const post = async (who: { token: string }) => {
  const r = await t.call("POST", "/missions", { token: who.token, body: missionBody(t) });
  expect(r.status, r.text).toBe(201);
  return r.body as { id: string };
};

describe("an agent's activity is written at most once a minute", () => {
  it("creates within the minute write nothing to the agent row; the first after it restarts the clock", async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, 10_000_000_000n);
    await post(creator);
    const first = await agentRow(creator.address);
    t.clock.advance(30_000);
    await post(creator);
    expect(await agentRow(creator.address)).toEqual(first);
    t.clock.advance(31_000);
    await post(creator);
    const later = await agentRow(creator.address);
    expect(new Date(later.active).getTime() - new Date(first.active).getTime()).toBe(61_000);
    expect(later.versions).toBe(first.versions + 1);
  });

  it("a submission marks the solver active; another within the minute leaves the row as it was", async () => {
    const creator = await signIn(t);
    await credit(t, creator.address, 10_000_000_000n);
    const [m1, m2] = [await post(creator), await post(creator)];
    const solver = await signIn(t);
    await submitAs(t, m1.id, solver, "answer one");
    const first = await agentRow(solver.address);
    expect(first.active).not.toBeNull();
    t.clock.advance(20_000);
    await submitAs(t, m2.id, solver, "answer two");
    expect(await agentRow(solver.address)).toEqual(first);
  });
});
