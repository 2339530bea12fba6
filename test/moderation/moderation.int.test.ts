import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, makeTestApp } from "../helpers/app";
import { credit, missionBody, openMission, signIn } from "../helpers/agents";
import { callTool, openSession, mcpMission } from "../helpers/mcp";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { useTestApp } from "../helpers/suite-app";
import { balanceOf } from "../helpers/judging";
import { acceptedSubmission, awardedTo } from "../helpers/mission-flow";

// Moderation and operator control (docs/moderation.md): who may call the operator routes, hide /
// unhide, suspend / unsuspend. The reports queue, the posting gate and the audit log:
// moderation-queue.int.test.ts.

const t = useTestApp({ OABP_SESSION_TTL_SECONDS: String(30 * 86_400) });

const admin = (method: string, path: string, body?: unknown) => t.call(method, path, { token: ADMIN_TOKEN, body });
const WRONG_ADMIN = "test-admin-token-XXXXXXXXXXXXXXXXXXXX";

describe("authorization of the operator routes", () => {
  it("anonymous → 401, an agent → 403, a wrong admin token → 401; bad input → 400", async () => {
    const { mission } = await openMission(t);
    const agent = await signIn(t);
    const routes: [string, string, unknown?][] = [
      ["POST", `/admin/missions/${mission.id}/hide`, { reason: "spam" }],
      ["POST", `/admin/missions/${mission.id}/unhide`, {}],
      ["POST", `/admin/agents/${agent.address}/suspend`, { reason: "spam" }],
      ["POST", `/admin/agents/${agent.address}/unsuspend`, {}],
      ["GET", `/admin/agents/${agent.address}/suspension`],
      ["GET", "/admin/reports"],
      ["POST", "/admin/reports/rep_01JZ0000000000000000000000/resolve", {}],
      ["POST", "/admin/reports/rep_01JZ0000000000000000000000/dismiss", {}],
      ["GET", "/admin/posting-allowlist"],
      ["PUT", `/admin/posting-allowlist/${agent.address}`, {}],
      ["DELETE", `/admin/posting-allowlist/${agent.address}`],
      ["GET", "/admin/audit"],
    ];
    for (const [method, path, body] of routes) {
      const anon = await t.call(method, path, { body });
      expect(anon.status, `${method} ${path} anonymous`).toBe(401);
      const asAgent = await t.call(method, path, { token: agent.token, body });
      expect(asAgent.status, `${method} ${path} agent`).toBe(403);
      expect(asAgent.body.error).toBe("FORBIDDEN");
      const wrong = await t.call(method, path, { token: WRONG_ADMIN, body });
      expect(wrong.status, `${method} ${path} wrong admin token`).toBe(401);
    }
    // Nothing acted: the mission is still listed and the agent not suspended.
    expect((await t.call("GET", `/missions/${mission.id}`)).status).toBe(200);
    expect((await admin("GET", `/admin/agents/${agent.address}/suspension`)).body.suspended).toBe(false);

    expect((await admin("POST", `/admin/missions/${mission.id}/hide`, {})).status).toBe(400);
    expect((await admin("POST", `/admin/missions/${mission.id}/hide`, { reason: "" })).status).toBe(400);
    expect((await admin("POST", `/admin/missions/${mission.id}/hide`, { reason: "x", refund: "yes" })).status).toBe(
      400,
    );
    const missing = await admin("POST", "/admin/missions/mis_01JZ0000000000000000000000/hide", { reason: "x" });
    expect(missing.status).toBe(404);
    expect((await admin("POST", "/admin/agents/not-an-address/suspend", { reason: "x" })).status).toBe(400);
    expect((await admin("GET", "/admin/audit?cursor=abc")).status).toBe(400);
    expect((await admin("GET", "/admin/audit?action=nope")).status).toBe(400);
    expect((await admin("GET", "/admin/reports?cursor=zzz")).status).toBe(400);
    expect((await admin("GET", "/admin/reports?limit=1000")).status).toBe(400);
  });
});

describe("hide / unhide", () => {
  it("a hidden mission vanishes from every public read; its creator and the operator see it with hidden: true", async () => {
    const tag = "hideme";
    const { creator, mission } = await openMission(t, { tags: [tag], title: "Hidden treasure hunt" });
    const other = await signIn(t);
    const listed = async () =>
      ((await t.call("GET", `/missions?tag=${tag}`)).body.missions as { id: string }[]).map((m) => m.id);
    expect(await listed()).toEqual([mission.id]);

    const r = await admin("POST", `/admin/missions/${mission.id}/hide`, { reason: "reported as scam" });
    expect(r.status, r.text).toBe(200);
    expect(r.body.refunded).toBe(false);
    expect(r.body.mission.hidden).toBe(true);
    expect(r.body.mission.status).toBe("open");

    expect(await listed()).toEqual([]);
    expect((await t.call("GET", "/missions?limit=100")).body.missions.map((m: any) => m.id)).not.toContain(mission.id);
    expect((await t.call("GET", `/missions?status=open&tag=${tag}`)).body.missions.map((m: any) => m.id)).not.toContain(
      mission.id,
    );
    expect((await t.call("GET", `/missions?q=treasure`)).body.missions.map((m: any) => m.id)).not.toContain(mission.id);
    expect((await t.call("GET", `/missions/${mission.id}`)).status).toBe(404);
    expect((await t.call("GET", `/missions/${mission.id}`, { token: other.token })).status).toBe(404);
    const own = await t.call("GET", `/missions/${mission.id}`, { token: creator.token });
    expect(own.status).toBe(200);
    expect(own.body.hidden).toBe(true);
    expect(own.body.hidden_reason).toBe("reported as scam");
    const op = await admin("GET", `/missions/${mission.id}`);
    expect(op.status).toBe(200);
    expect(op.body.hidden).toBe(true);
    // web page, feeds, sitemap, MCP
    expect((await t.call("GET", `/m/${mission.id}`)).status).toBe(404);
    expect((await t.call("GET", "/feed.xml")).text).not.toContain(mission.id);
    expect((await t.call("GET", "/missions.rss")).text).not.toContain(mission.id);
    const sitemap = await t.call("GET", "/sitemaps/missions-0.xml");
    expect(sitemap.text).not.toContain(mission.id);
    const session = await openSession(t);
    const viaMcp = await callTool(t, session, "get_mission", { mission_id: mission.id });
    expect(viaMcp.isError).toBe(true);
    const mcpList = await callTool(t, session, "list_missions", { tag });
    expect(mcpList.structuredContent.missions).toEqual([]);
    // Nobody but the creator acts on it: a submission or a claim finds no mission.
    const sub = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: other.token,
      body: { content: "answer" },
    });
    expect(sub.status).toBe(404);
    expect((await t.call("POST", `/missions/${mission.id}/claims`, { token: other.token })).status).toBe(404);
    // A second hide is a conflict; unhide brings it back.
    expect((await admin("POST", `/admin/missions/${mission.id}/hide`, { reason: "again" })).status).toBe(409);
    const back = await admin("POST", `/admin/missions/${mission.id}/unhide`, { reason: "cleared" });
    expect(back.status, back.text).toBe(200);
    expect(back.body.mission.hidden).toBeUndefined();
    expect(await listed()).toEqual([mission.id]);
    expect((await t.call("GET", `/missions/${mission.id}`)).body.hidden).toBeUndefined();
    expect((await admin("POST", `/admin/missions/${mission.id}/unhide`, {})).status).toBe(409);
  });

  it("hide with refund voids an open mission and refunds the reward to its creator in one ledger transfer", async () => {
    const { creator, mission } = await openMission(t);
    const before = await balanceOf(t, creator.address);
    const r = await admin("POST", `/admin/missions/${mission.id}/hide`, { reason: "illegal", refund: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body.refunded).toBe(true);
    expect(r.body.mission.status).toBe("voided");
    expect(r.body.mission.resolution_reason).toBe("operator_hide");
    expect(await balanceOf(t, creator.address)).toBe(before + BigInt(mission.reward.amount));
    const verify = await admin("GET", "/admin/ledger/verify");
    expect(verify.body.ok, verify.text).toBe(true);
    // Unhiding does not undo the refund.
    const back = await admin("POST", `/admin/missions/${mission.id}/unhide`, {});
    expect(back.body.mission.status).toBe("voided");
  });

  it("refund is refused on a mission that is no longer open (409 not_refundable) and nothing changes", async () => {
    const { creator, mission } = await openMission(t);
    const solver = await signIn(t);
    const sub = await t.call("POST", `/missions/${mission.id}/submissions`, {
      token: solver.token,
      body: { content: "work" },
    });
    await awardedTo(t, mission.id, creator, sub.body.id);
    const r = await admin("POST", `/admin/missions/${mission.id}/hide`, { reason: "late", refund: true });
    expect(r.status).toBe(409);
    expect(r.body.details.reason).toBe("not_refundable");
    expect((await t.call("GET", `/missions/${mission.id}`)).status).toBe(200);
  });
});

describe("suspension", () => {
  it("a suspended agent cannot create, claim or submit; its existing mission still pays out, and its own win is paid", async () => {
    const { creator, mission } = await openMission(t);
    const solver = await signIn(t);
    const sub = await acceptedSubmission(t, mission.id, solver, "honest work");
    const { mission: other } = await openMission(t);

    for (const who of [creator, solver]) {
      const s = await admin("POST", `/admin/agents/${who.address}/suspend`, { reason: "abuse" });
      expect(s.status, s.text).toBe(200);
      expect(s.body.suspended).toBe(true);
    }
    const create = await t.call("POST", "/missions", { token: creator.token, body: missionBody(t) });
    expect(create.status).toBe(403);
    expect(create.body.details.reason).toBe("suspended");
    // Every other write of the agent's too: profile, ADP card, webhooks, reports (docs/moderation.md).
    for (const [method, path, body] of [
      ["PUT", `/agents/${solver.address}`, { display_name: "renamed" }],
      [
        "POST",
        "/adp/adp.advertise",
        { id: "agent://suspended", name: "s", skills: ["ops/x"], extensions: { oabp: { agent_id: solver.address } } },
      ],
      ["POST", "/webhooks", { url: "https://hooks.example.com/x", events: ["mission.created"] }],
      ["POST", `/missions/${other.id}/reports`, { reason: "spam" }],
    ] as const) {
      const r = await t.call(method, path, { token: solver.token, body });
      expect([path, r.status, r.body?.details?.reason]).toEqual([path, 403, "suspended"]);
    }
    const claim = await t.call("POST", `/missions/${other.id}/claims`, { token: solver.token });
    expect(claim.status).toBe(403);
    expect(claim.body.details.reason).toBe("suspended");
    const submit = await t.call("POST", `/missions/${other.id}/submissions`, {
      token: solver.token,
      body: { content: "more work" },
    });
    expect(submit.status).toBe(403);
    expect(submit.body.details.reason).toBe("suspended");
    const vote = await t.call("POST", `/missions/${other.id}/votes`, {
      token: solver.token,
      body: { submission_id: sub.body.id, amount: "1" },
    });
    expect(vote.status).toBe(403);
    expect(vote.body.details.reason).toBe("suspended");
    const commit = await t.call("POST", `/missions/${other.id}/commitments`, {
      token: solver.token,
      body: { commitment: "a".repeat(64) },
    });
    expect(commit.status).toBe(403);
    expect(commit.body.details.reason).toBe("suspended");
    const session = await openSession(t, creator.token);
    const viaMcp = await callTool(t, session, "create_mission", mcpMission(missionBody(t)), creator.token);
    expect(viaMcp.isError).toBe(true);
    expect(JSON.stringify(viaMcp.content)).toContain("suspended");

    // Existing money settles: the suspended creator's award pays the suspended solver.
    const before = await balanceOf(t, solver.address);
    await awardedTo(t, mission.id, creator, sub.body.id);
    expect((await t.call("GET", `/missions/${mission.id}`)).body.status).toBe("resolved");
    expect(await balanceOf(t, solver.address)).toBeGreaterThan(before);

    // Lifted: it may post again; a second unsuspend is 404.
    expect((await admin("POST", `/admin/agents/${creator.address}/unsuspend`, { reason: "appeal" })).status).toBe(200);
    expect((await admin("GET", `/admin/agents/${creator.address}/suspension`)).body.suspended).toBe(false);
    const again = await t.call("POST", "/missions", { token: creator.token, body: missionBody(t) });
    expect(again.status, again.text).toBe(201);
    expect((await admin("POST", `/admin/agents/${creator.address}/unsuspend`, {})).status).toBe(404);
  });

  it("a suspended agent cannot ask, top up or edit; it may still extend its deadline, answer and message", async () => {
    const { creator, mission } = await openMission(t);
    const solver = await signIn(t);
    await credit(t, solver.address, 10_000_000n);
    const asked = await t.call("POST", `/missions/${mission.id}/questions`, {
      token: solver.token,
      body: { body: "Which format?" },
    });
    expect(asked.status, asked.text).toBe(201);
    const sub = await acceptedSubmission(t, mission.id, solver, "work");
    for (const who of [creator, solver])
      expect((await admin("POST", `/admin/agents/${who.address}/suspend`, { reason: "abuse" })).status).toBe(200);
    const refused = async (r: Promise<{ status: number; body: any }>) => {
      const res = await r;
      expect(res.status).toBe(403);
      expect(res.body.details.reason).toBe("suspended");
    };
    await refused(
      t.call("POST", `/missions/${mission.id}/questions`, { token: solver.token, body: { body: "And now?" } }),
    );
    await refused(
      t.call("POST", `/missions/${mission.id}/amendments`, {
        token: solver.token,
        body: { kind: "top_up", amount: "1000" },
      }),
    );
    await refused(
      t.call("POST", `/missions/${mission.id}/amendments`, {
        token: creator.token,
        body: { kind: "edit", title: "Spam title" },
      }),
    );
    // What concerns work already in motion stays open.
    const deadline = new Date(new Date(mission.deadline).getTime() + 86_400_000).toISOString();
    const extended = await t.call("POST", `/missions/${mission.id}/amendments`, {
      token: creator.token,
      body: { kind: "extend_deadline", deadline },
    });
    expect(extended.status, extended.text).toBe(201);
    const answered = await t.call("POST", `/missions/${mission.id}/questions/${asked.body.id}/answer`, {
      token: creator.token,
      body: { answer: "Markdown." },
    });
    expect(answered.status, answered.text).toBe(200);
    const message = await t.call("POST", `/missions/${mission.id}/submissions/${sub.body.id}/messages`, {
      token: solver.token,
      body: { body: "Thanks" },
    });
    expect(message.status, message.text).toBe(201);
    for (const who of [creator, solver]) await admin("POST", `/admin/agents/${who.address}/unsuspend`, {});
  });

  it("a suspended creator who never judges: the default award still pays the (suspended) solver", async () => {
    const app = await makeTestApp();
    try {
      const { creator, mission } = await openMission(app);
      const solver = await signIn(app);
      const sub = await app.call("POST", `/missions/${mission.id}/submissions`, {
        token: solver.token,
        body: { content: "the answer" },
      });
      expect(sub.status, sub.text).toBe(201);
      for (const who of [creator, solver])
        expect(
          (
            await app.call("POST", `/admin/agents/${who.address}/suspend`, {
              token: ADMIN_TOKEN,
              body: { reason: "x" },
            })
          ).status,
        ).toBe(200);
      const before = await balanceOf(app, solver.address);
      app.clock.set(new Date(new Date(mission.deadline).getTime() + 1000));
      await sweepDueMissions(app.deps);
      app.clock.advance(app.deps.config.judgingWindowSeconds * 1000);
      await sweepDueMissions(app.deps);
      const after = (await app.call("GET", `/missions/${mission.id}`)).body;
      expect(after.status).toBe("resolved");
      expect(after.resolution_reason).toBe("default_award_judging_expired");
      expect(await balanceOf(app, solver.address)).toBeGreaterThan(before);
    } finally {
      await app.close();
    }
  });

  it("a suspension with `until` lifts itself; `until` in the past is 422", async () => {
    const a = await signIn(t);
    await credit(t, a.address, 1_000_000_000n);
    const past = await admin("POST", `/admin/agents/${a.address}/suspend`, {
      reason: "x",
      until: new Date(t.clock.now().getTime() - 1000).toISOString(),
    });
    expect(past.status).toBe(422);
    const until = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const s = await admin("POST", `/admin/agents/${a.address}/suspend`, { reason: "cool-off", until });
    expect(s.body.until).toBe(until);
    expect((await t.call("POST", "/missions", { token: a.token, body: missionBody(t) })).status).toBe(403);
    t.clock.advance(2 * 3_600_000);
    const r = await t.call("POST", "/missions", { token: a.token, body: missionBody(t) });
    expect(r.status, r.text).toBe(201);
  });
});
