import { randomBytes } from "node:crypto";
import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { agents, registryBindings, BLOCKLIST_MAX, ELIGIBILITY_LIST_MAX } from "../../src/db/schema/index";
import { credit, missionBody, newAccount, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { callTool, openSession } from "../helpers/mcp";
import { useTestApp } from "../helpers/suite-app";

// Per-mission eligibility (min_rating, min_completed, allow, block, audience) and
// a creator's standing block-list, enforced at claim AND submission on REST and MCP alike.

/** `n` distinct checksummed addresses, without deriving keys. */
const addresses = (n: number) => Array.from({ length: n }, () => getAddress(`0x${randomBytes(20).toString("hex")}`));

const t = useTestApp();

type Agent = Awaited<ReturnType<typeof signIn>>;
async function creatorWith(eligibility: Record<string, unknown>, over: Record<string, unknown> = {}) {
  const creator = await signIn(t);
  await credit(t, creator.address, 1_000_000_000n);
  const r = await t.call("POST", "/missions", { token: creator.token, body: missionBody(t, { eligibility, ...over }) });
  return { creator, r };
}
async function postWith(eligibility: Record<string, unknown>, over: Record<string, unknown> = {}) {
  const { creator, r } = await creatorWith(eligibility, over);
  expect(r.status, r.text).toBe(201);
  return { creator, mission: r.body };
}
const claim = (id: string, a: Agent) => t.call("POST", `/missions/${id}/claims`, { token: a.token });
const submit = (id: string, a: Agent) =>
  t.call("POST", `/missions/${id}/submissions`, { token: a.token, body: { content: `work of ${a.address}` } });
const refusedBoth = async (id: string, a: Agent, reason: string) => {
  for (const r of [await claim(id, a), await submit(id, a)]) {
    expectError(r, 403, "FORBIDDEN");
    expect(r.body.details.reason).toBe(reason);
  }
};

describe("bad input at creation", () => {
  it("refuses malformed and contradictory eligibility with stable codes", async () => {
    const bad = newAccount().address;
    const cases: [Record<string, unknown>, Record<string, unknown>, number, string, string?][] = [
      [{ allow: ["0x123"] }, {}, 400, "INVALID_PARAMETER"],
      [{ audience: "robots" }, {}, 400, "INVALID_PARAMETER"],
      [{ unknown_rule: 1 }, {}, 400, "INVALID_PARAMETER"],
      [{ allow: [] }, {}, 400, "INVALID_PARAMETER"],
      [{ min_completed: -1 }, {}, 400, "INVALID_PARAMETER"],
      [{ allow: [bad], block: [bad.toLowerCase()] }, {}, 422, "UNPROCESSABLE", "allowed_and_blocked"],
      [{ min_rating: 1500 }, { min_submitter_elo: 1600 }, 422, "UNPROCESSABLE", "conflicting_min_rating"],
      [{ block: addresses(ELIGIBILITY_LIST_MAX + 1) }, {}, 422, "UNPROCESSABLE", "list_too_long"],
    ];
    for (const [eligibility, over, status, code, reason] of cases) {
      const { r } = await creatorWith(eligibility, over);
      expectError(r, status, code);
      if (reason) expect(r.body.details.reason).toBe(reason);
    }
    // A mixed-case address with a wrong EIP-55 checksum is refused too.
    const lower = newAccount().address.toLowerCase();
    const wrong = `0x${lower.slice(2, 12).toUpperCase()}${lower.slice(12)}`;
    const { r } = await creatorWith({ allow: [wrong] });
    expectError(r, 400, "INVALID_PARAMETER");
  });

  it("a mission without eligibility shows the open defaults", async () => {
    const { mission } = await postWith({});
    expect(mission.eligibility).toEqual({
      min_rating: 0,
      min_completed: 0,
      audience: "anyone",
      invite_only: false,
      allow_count: null,
      allow: null,
      viewer_allowed: null,
      block_count: 0,
      block: null, // the creator's view too: an empty list reads null
      viewer_blocked: null, // the creator reading its own mission
    });
  });
});

describe("allow-list (invite-only)", () => {
  it("only listed addresses claim and submit; lists are shown to the creator, counts to others", async () => {
    const invited = await signIn(t);
    const stranger = await signIn(t);
    const { creator, mission } = await postWith({ allow: [invited.account.address] });
    // Shown: counts to everyone, the list to the creator, membership to the signed-in reader.
    const anon = (await t.call("GET", `/missions/${mission.id}`)).body.eligibility;
    expect(anon).toMatchObject({ invite_only: true, allow_count: 1, allow: null, viewer_allowed: null, block: null });
    const own = (await t.call("GET", `/missions/${mission.id}`, { token: creator.token })).body.eligibility;
    expect(own).toMatchObject({ allow: [invited.address], viewer_allowed: true, block: null });
    expect((await t.call("GET", `/missions/${mission.id}`, { token: invited.token })).body.eligibility).toMatchObject({
      allow: null,
      viewer_allowed: true,
    });
    expect((await t.call("GET", `/missions/${mission.id}`, { token: stranger.token })).body.eligibility).toMatchObject({
      allow: null,
      viewer_allowed: false,
    });
    const listed = (await t.call("GET", `/missions?creator=${creator.address}`)).body.missions[0];
    expect(listed.eligibility).toMatchObject({ invite_only: true, allow_count: 1, allow: null, viewer_allowed: null });

    await refusedBoth(mission.id, stranger, "not_on_allow_list");
    expect((await claim(mission.id, invited)).status).toBe(201);
    expect((await submit(mission.id, invited)).status).toBe(201);
    // Nothing was written for the refused agent.
    const m = (await t.call("GET", `/missions/${mission.id}`)).body;
    expect(m).toMatchObject({ submission_count: 1, claim_count: 1 });
  });

  it("the MCP tools go through the same check", async () => {
    const invited = await signIn(t);
    const stranger = await signIn(t);
    const { mission } = await postWith({ allow: [invited.address] });
    const session = await openSession(t, stranger.token);
    for (const [name, args] of [
      ["claim_mission", { mission_id: mission.id }],
      ["submit_solution", { mission_id: mission.id, content: "from mcp" }],
    ] as const) {
      const res = await callTool(t, session, name, args, stranger.token);
      expect(res.isError, JSON.stringify(res)).toBe(true);
      expect(res.content[0]!.text).toMatch(/FORBIDDEN|invite-only/);
    }
    const ok = await callTool(
      t,
      await openSession(t, invited.token),
      "claim_mission",
      { mission_id: mission.id },
      invited.token,
    );
    expect(ok.isError).toBe(false);
  });
});

describe("block-lists", () => {
  it("a mission's block-list refuses its addresses at claim and submission", async () => {
    const blocked = await signIn(t);
    const other = await signIn(t);
    const { mission } = await postWith({ block: [blocked.address] });
    expect(mission.eligibility).toMatchObject({ block_count: 1, block: [blocked.address] });
    expect((await t.call("GET", `/missions/${mission.id}`)).body.eligibility.block).toBeNull();
    await refusedBoth(mission.id, blocked, "blocked");
    expect((await submit(mission.id, other)).status).toBe(201);
  });

  it("PUT /agents/{me}/blocklist: owner only, bounded, applied to every mission of the creator", async () => {
    const { creator, mission } = await postWith({});
    const pest = await signIn(t);
    const other = await signIn(t);
    const path = `/agents/${creator.address}/blocklist`;
    // authz: anonymous 401, another agent 403 (read and write).
    expectError(await t.call("PUT", path, { body: { addresses: [pest.address] } }), 401, "UNAUTHORIZED");
    expectError(await t.call("GET", path), 401, "UNAUTHORIZED");
    expectError(await t.call("PUT", path, { token: other.token, body: { addresses: [] } }), 403, "FORBIDDEN");
    expectError(await t.call("GET", path, { token: other.token }), 403, "FORBIDDEN");
    // bad input
    expectError(
      await t.call("PUT", path, { token: creator.token, body: { addresses: ["nope"] } }),
      400,
      "INVALID_PARAMETER",
    );
    expectError(await t.call("PUT", path, { token: creator.token, body: { list: [] } }), 400, "INVALID_PARAMETER");
    const self = await t.call("PUT", path, { token: creator.token, body: { addresses: [creator.address] } });
    expectError(self, 422, "UNPROCESSABLE");
    const long = await t.call("PUT", path, { token: creator.token, body: { addresses: addresses(BLOCKLIST_MAX + 1) } });
    expectError(long, 422, "UNPROCESSABLE");
    expect(long.body.details).toMatchObject({ reason: "list_too_long", max: BLOCKLIST_MAX });

    const put = await t.call("PUT", path, {
      token: creator.token,
      body: { addresses: [pest.account.address, pest.address] },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ agent_id: creator.address, addresses: [pest.address], max: BLOCKLIST_MAX });
    expect((await t.call("GET", path, { token: creator.token })).body.addresses).toEqual([pest.address]);
    // Never shown on the mission; enforced on a mission posted before the list.
    expect((await t.call("GET", `/missions/${mission.id}`)).body.eligibility.block_count).toBe(0);
    await refusedBoth(mission.id, pest, "blocked");
    expect((await claim(mission.id, other)).status).toBe(201);
    // Replaced whole: an empty list lifts the block.
    expect((await t.call("PUT", path, { token: creator.token, body: { addresses: [] } })).body.addresses).toEqual([]);
    expect((await claim(mission.id, pest)).status).toBe(201);
  });
});

describe("AIP-2 §4.1 surfaced gates", () => {
  it("AIP-2 §4.1: the creator's standing block-list is surfaced to the blocked agent before it submits", async () => {
    const { creator, mission } = await postWith({});
    const pest = await signIn(t);
    const other = await signIn(t);
    const read = async (who?: { token: string }) =>
      (await t.call("GET", `/missions/${mission.id}`, who ? { token: who.token } : {})).body.eligibility;
    expect((await read(pest)).viewer_blocked).toBe(false);
    const put = await t.call("PUT", `/agents/${creator.address}/blocklist`, {
      token: creator.token,
      body: { addresses: [pest.address] },
    });
    expect(put.status, put.text).toBe(200);
    // The blocked reader learns it from the mission it reads; nobody learns the list.
    expect(await read(pest)).toMatchObject({ viewer_blocked: true, block_count: 0, block: null });
    expect((await read(other)).viewer_blocked).toBe(false);
    expect((await read()).viewer_blocked).toBeNull();
    expect((await read(creator)).viewer_blocked).toBeNull();
    // And the answer matches what submitting would do.
    await refusedBoth(mission.id, pest, "blocked");
    await t.call("PUT", `/agents/${creator.address}/blocklist`, { token: creator.token, body: { addresses: [] } });
  });
});

describe("audience, min_rating, min_completed", () => {
  it('audience "agents": a live registry attestation counts, an expired one does not', async () => {
    const { mission } = await postWith({ audience: "agents" });
    expect(mission.eligibility.audience).toBe("agents");
    const wallet = await signIn(t);
    await refusedBoth(mission.id, wallet, "agents_only");
    const now = t.clock.now();
    const bind = (agentId: string, key: string, expiresAt: Date) =>
      t.deps.database.db.insert(registryBindings).values({
        apiKeyHash: key,
        registryDomain: "registry.test",
        agentId,
        issuedAt: now,
        expiresAt,
        createdAt: now,
      });
    const stale = await signIn(t);
    await bind(stale.address, `stale-${stale.address}`, new Date(now.getTime() - 1000));
    await refusedBoth(mission.id, stale, "agents_only");
    const agent = await signIn(t);
    await bind(agent.address, `live-${agent.address}`, new Date(now.getTime() + 3_600_000));
    expect((await claim(mission.id, agent)).status).toBe(201);
    expect((await submit(mission.id, agent)).status).toBe(201);
  });

  it("min_rating is min_submitter_elo under its earlier name; min_completed counts missions won", async () => {
    const { mission } = await postWith({ min_rating: 1500 });
    expect(mission).toMatchObject({ min_submitter_elo: 1500, eligibility: { min_rating: 1500 } });
    const newcomer = await signIn(t);
    await refusedBoth(mission.id, newcomer, "below_min_submitter_elo");

    const { mission: m2 } = await postWith({ min_completed: 2 }, { min_submitter_elo: 0 });
    expect(m2.eligibility.min_completed).toBe(2);
    const solver = await signIn(t);
    await refusedBoth(m2.id, solver, "below_min_completed");
    const r = await claim(m2.id, solver);
    expect(r.body.details).toMatchObject({ min_completed: 2, completed: 0 });
    await t.deps.database.db.update(agents).set({ missionsCompleted: 2 }).where(eq(agents.id, solver.address));
    expect((await claim(m2.id, solver)).status).toBe(201);
    expect((await submit(m2.id, solver)).status).toBe(201);
  });
});
