import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, makeTestApp } from "../helpers/app";
import { credit, missionBody, openMission, signIn } from "../helpers/agents";
import { callTool, openSession, mcpMission } from "../helpers/mcp";
import { useTestApp } from "../helpers/suite-app";

// Moderation and operator control (docs/moderation.md), second part (the first:
// moderation.int.test.ts): the reports queue, the posting gate and the append-only audit log.

const t = useTestApp({ OABP_SESSION_TTL_SECONDS: String(30 * 86_400) });

const admin = (method: string, path: string, body?: unknown) => t.call(method, path, { token: ADMIN_TOKEN, body });
describe("reports", () => {
  it("an agent reports a mission once; the operator lists, resolves and dismisses", async () => {
    const { creator, mission } = await openMission(t);
    const reporter = await signIn(t);
    const path = `/missions/${mission.id}/reports`;
    expect((await t.call("POST", path, { body: { reason: "spam" } })).status).toBe(401);
    expect((await t.call("POST", path, { token: ADMIN_TOKEN, body: { reason: "spam" } })).status).toBe(403);
    expect((await t.call("POST", path, { token: reporter.token, body: { reason: "nonsense" } })).status).toBe(400);
    expect(
      (await t.call("POST", path, { token: reporter.token, body: { reason: "spam", note: "x".repeat(2001) } })).status,
    ).toBe(400);
    const own = await t.call("POST", path, { token: creator.token, body: { reason: "spam" } });
    expect(own.status).toBe(403);
    expect(own.body.details.reason).toBe("own_mission");
    expect(
      (
        await t.call("POST", "/missions/mis_01JZ0000000000000000000000/reports", {
          token: reporter.token,
          body: { reason: "spam" },
        })
      ).status,
    ).toBe(404);

    const r = await t.call("POST", path, { token: reporter.token, body: { reason: "scam", note: "asks for keys" } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      mission_id: mission.id,
      reporter: reporter.address,
      reason: "scam",
      status: "open",
    });
    const dup = await t.call("POST", path, { token: reporter.token, body: { reason: "spam" } });
    expect(dup.status).toBe(409);
    expect(dup.body.details).toMatchObject({ reason: "already_reported", report_id: r.body.id });
    const second = await signIn(t);
    const r2 = await t.call("POST", path, { token: second.token, body: { reason: "misleading" } });
    expect(r2.status).toBe(201);

    // The queue, paged with the cursor.
    const page1 = await admin("GET", `/admin/reports?mission_id=${mission.id}&limit=1`);
    expect(page1.status).toBe(200);
    expect(page1.body.reports.map((x: any) => x.id)).toEqual([r.body.id]);
    const page2 = await admin(
      "GET",
      `/admin/reports?mission_id=${mission.id}&limit=1&cursor=${page1.body.next_cursor}`,
    );
    expect(page2.body.reports.map((x: any) => x.id)).toEqual([r2.body.id]);
    expect(page2.body.next_cursor).toBeNull();

    const resolved = await admin("POST", `/admin/reports/${r.body.id}/resolve`, { note: "hidden" });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body.status).toBe("resolved");
    expect((await admin("POST", `/admin/reports/${r.body.id}/dismiss`, {})).status).toBe(409);
    const dismissed = await admin("POST", `/admin/reports/${r2.body.id}/dismiss`, {});
    expect(dismissed.body.status).toBe("dismissed");
    expect((await admin("POST", "/admin/reports/rep_01JZ0000000000000000000000/resolve", {})).status).toBe(404);
    expect((await admin("GET", `/admin/reports?mission_id=${mission.id}`)).body.reports).toEqual([]);
    expect(
      (await admin("GET", `/admin/reports?mission_id=${mission.id}&status=resolved`)).body.reports.map(
        (x: any) => x.id,
      ),
    ).toEqual([r.body.id]);
    // Closed: the reporter may report again.
    expect((await t.call("POST", path, { token: reporter.token, body: { reason: "spam" } })).status).toBe(201);
  });

  it("reports are rate-limited per agent (OABP_REPORT_RATE)", async () => {
    const app = await makeTestApp({ OABP_REPORT_RATE: "2/3600" });
    try {
      const reporter = await signIn(app);
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const { mission } = await openMission(app);
        codes.push(
          (
            await app.call("POST", `/missions/${mission.id}/reports`, {
              token: reporter.token,
              body: { reason: "spam" },
            })
          ).status,
        );
      }
      expect(codes).toEqual([201, 201, 429]);
    } finally {
      await app.close();
    }
  });
});

describe("posting gate", () => {
  it("allow_list: only listed addresses post, on REST and MCP; the operator manages the list", async () => {
    const app = await makeTestApp({ OABP_POSTING_GATE: "allow_list" });
    try {
      const a = await signIn(app);
      await credit(app, a.address, 1_000_000_000n);
      const refused = await app.call("POST", "/missions", { token: a.token, body: missionBody(app) });
      expect(refused.status).toBe(403);
      expect(refused.body.details.reason).toBe("posting_not_allowed");
      const session = await openSession(app, a.token);
      const viaMcp = await callTool(app, session, "create_mission", mcpMission(missionBody(app)), a.token);
      expect(viaMcp.isError).toBe(true);

      const put = await app.call("PUT", `/admin/posting-allowlist/${a.address}`, {
        token: ADMIN_TOKEN,
        body: { note: "partner" },
      });
      expect(put.status, put.text).toBe(200);
      const list = await app.call("GET", "/admin/posting-allowlist", { token: ADMIN_TOKEN });
      expect(list.body.gate).toBe("allow_list");
      expect(list.body.entries.map((e: any) => e.address)).toEqual([a.address]);
      expect((await app.call("POST", "/missions", { token: a.token, body: missionBody(app) })).status).toBe(201);
      const mcpOk = await callTool(app, session, "create_mission", mcpMission(missionBody(app)), a.token);
      expect(mcpOk.isError, JSON.stringify(mcpOk.content)).toBe(false);

      expect((await app.call("DELETE", `/admin/posting-allowlist/${a.address}`, { token: ADMIN_TOKEN })).status).toBe(
        204,
      );
      expect((await app.call("DELETE", `/admin/posting-allowlist/${a.address}`, { token: ADMIN_TOKEN })).status).toBe(
        404,
      );
      expect((await app.call("POST", "/missions", { token: a.token, body: missionBody(app) })).status).toBe(403);
    } finally {
      await app.close();
    }
  });

  it("min_rating: a creator below OABP_POSTING_MIN_RATING is refused", async () => {
    const app = await makeTestApp({ OABP_POSTING_GATE: "min_rating", OABP_POSTING_MIN_RATING: "1500" });
    try {
      const a = await signIn(app);
      await credit(app, a.address, 1_000_000_000n);
      const r = await app.call("POST", "/missions", { token: a.token, body: missionBody(app) });
      expect(r.status).toBe(403);
      expect(r.body.details).toMatchObject({ reason: "posting_rating_too_low", min_rating: 1500, rating: 1400 });
    } finally {
      await app.close();
    }
  });
});

describe("operator audit log", () => {
  it("records every operator action newest first, pages with a cursor, filters by action", async () => {
    const app = await makeTestApp();
    try {
      const a = await signIn(app);
      await credit(app, a.address, 1_000_000_000n);
      const { mission } = await openMission(app);
      await app.call("POST", `/admin/missions/${mission.id}/hide`, { token: ADMIN_TOKEN, body: { reason: "r1" } });
      await app.call("POST", `/admin/missions/${mission.id}/unhide`, { token: ADMIN_TOKEN, body: {} });
      await app.call("POST", `/admin/agents/${a.address}/suspend`, { token: ADMIN_TOKEN, body: { reason: "r2" } });
      await app.call("POST", `/admin/agents/${a.address}/unsuspend`, { token: ADMIN_TOKEN, body: {} });
      await app.call("PUT", `/admin/posting-allowlist/${a.address}`, { token: ADMIN_TOKEN, body: {} });
      await app.call("DELETE", `/admin/posting-allowlist/${a.address}`, { token: ADMIN_TOKEN });
      const all = await app.call("GET", "/admin/audit?limit=100", { token: ADMIN_TOKEN });
      expect(all.status, all.text).toBe(200);
      expect(all.body.entries.map((e: any) => e.action)).toEqual([
        "posting_allowlist.remove",
        "posting_allowlist.add",
        "agent.unsuspend",
        "agent.suspend",
        "mission.unhide",
        "mission.hide",
        "ledger.credit",
        "ledger.credit",
      ]);
      expect(all.body.entries[5]).toMatchObject({ target: mission.id, detail: { reason: "r1", refund: false } });
      const p1 = await app.call("GET", "/admin/audit?limit=3", { token: ADMIN_TOKEN });
      const p2 = await app.call("GET", `/admin/audit?limit=3&cursor=${p1.body.next_cursor}`, { token: ADMIN_TOKEN });
      expect([...p1.body.entries, ...p2.body.entries].map((e: any) => e.seq)).toEqual(
        all.body.entries.slice(0, 6).map((e: any) => e.seq),
      );
      const credits = await app.call("GET", "/admin/audit?action=ledger.credit", { token: ADMIN_TOKEN });
      expect(credits.body.entries).toHaveLength(2);
    } finally {
      await app.close();
    }
  });

  it("is append-only in the database: UPDATE, DELETE and TRUNCATE are refused", async () => {
    const a = await signIn(t);
    await credit(t, a.address, 1n);
    const db = t.deps.database.db;
    // drizzle wraps the driver's error: the trigger's message is on the cause.
    const refusal = async (q: Promise<unknown>) => {
      try {
        await q;
        return "accepted";
      } catch (e) {
        const err = e as { message: string; cause?: { message?: string } };
        return `${err.message} ${err.cause?.message ?? ""}`;
      }
    };
    expect(await refusal(db.execute(sql`update operator_audit set action = 'ledger.credit' where seq > 0`))).toMatch(
      /append-only \(UPDATE refused\)/,
    );
    expect(await refusal(db.execute(sql`delete from operator_audit`))).toMatch(/append-only \(DELETE refused\)/);
    expect(await refusal(db.execute(sql`truncate operator_audit`))).toMatch(/append-only \(TRUNCATE refused\)/);
    const log = await admin("GET", "/admin/audit?action=ledger.credit&limit=1");
    expect(log.body.entries[0].target).toBe(a.address);
  });
});
