import { describe, expect, it } from "vitest";
import { openMission, signIn } from "../helpers/agents";
import { callTool, openSession } from "../helpers/mcp";
import { useTestApp } from "../helpers/suite-app";

// AIP-2 §4.1: the REST and MCP lists tell a signed-in reader `eligibility.viewer_blocked` as the
// detail does — the creator's standing block-list and the mission's own — so the reader learns it
// before a 403 at submit. Anonymous readers and the creator get null; the shared page stays null.
const t = useTestApp();

describe("viewer_blocked in lists", () => {
  it("REST and MCP lists say true for a blocked reader, false for another, null for anonymous and the creator", async () => {
    const { creator, mission } = await openMission(t, { tags: ["blocklist-list"] });
    const pest = await signIn(t);
    const other = await signIn(t);
    const put = await t.call("PUT", `/agents/${creator.address}/blocklist`, {
      token: creator.token,
      body: { addresses: [pest.address] },
    });
    expect(put.status, put.text).toBe(200);
    const listed = async (token?: string) => {
      const r = await t.call("GET", "/missions?tag=blocklist-list", token ? { token } : {});
      expect(r.status, r.text).toBe(200);
      return r.body.missions.find((m: { id: string }) => m.id === mission.id).eligibility.viewer_blocked;
    };
    expect(await listed()).toBeNull(); // the shared page first (cached)
    expect(await listed(pest.token)).toBe(true);
    expect(await listed(other.token)).toBe(false);
    expect(await listed(creator.token)).toBeNull();
    expect(await listed()).toBeNull(); // the annotation never leaks into the shared page
    const signedIn = await t.call("GET", "/missions?tag=blocklist-list", { token: pest.token });
    expect(signedIn.headers.get("cache-control")).toBe("private, no-cache");
    // Agrees with the detail.
    expect(
      (await t.call("GET", `/missions/${mission.id}`, { token: pest.token })).body.eligibility.viewer_blocked,
    ).toBe(true);

    const session = await openSession(t, pest.token);
    const viaMcp = await callTool(t, session, "list_missions", { tag: "blocklist-list" }, pest.token);
    expect(viaMcp.structuredContent.missions[0].eligibility.viewer_blocked).toBe(true);
  });

  it("a mission's own block list counts too", async () => {
    const pest = await signIn(t);
    const { mission } = await openMission(t, { tags: ["own-block"], eligibility: { block: [pest.address] } });
    const r = await t.call("GET", "/missions?tag=own-block", { token: pest.token });
    expect(r.body.missions.find((m: { id: string }) => m.id === mission.id).eligibility.viewer_blocked).toBe(true);
  });
});
