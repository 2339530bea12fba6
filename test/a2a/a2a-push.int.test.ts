import { Task, taskStateToJSON } from "@a2a-js/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { a2aClient, a2aFetch, a2aMessage } from "../helpers/a2a-client";
import { serveTestApp, type ServedTestApp } from "../helpers/served";
import { openMission, signIn } from "../helpers/agents";
import { useReceiver } from "../helpers/suite-receiver";
import { sweepDueMissions } from "../../src/jobs/sweeper";
import { runWebhookJobs } from "../../src/jobs/webhooks";
import { MAX_PUSH_CONFIGS_PER_TASK } from "../../src/features/a2a/a2a.push";

// A2A push notifications (docs/a2a.md "Push notifications") driven by the official client
// (@a2a-js/sdk 1.3.0) over real HTTP: it sets a push config on its task, the task goes to
// COMPLETED, and a real local receiver (on the one loopback address the test fetcher may reach)
// gets the Task with the config's token. A config for an endpoint that never echoes the challenge
// (a third party's) gets the challenge and nothing else.
let t: ServedTestApp;
beforeAll(async () => {
  t = await serveTestApp();
});
afterAll(() => t?.close());
const rx = useReceiver();

const config = (taskId: string, path: string, token = "") => ({
  tenant: "",
  id: "",
  taskId,
  url: `${rx.base}${path}`,
  token,
  authentication: undefined,
});

describe("A2A push notifications with @a2a-js/sdk 1.3.0", () => {
  it("the card declares them; a verified receiver gets the COMPLETED task with its token, an unverified third party nothing", async () => {
    const card = (await (await a2aFetch(t)(`${t.base}/.well-known/agent-card.json`)).json()) as {
      capabilities: { pushNotifications: boolean };
    };
    expect(card.capabilities.pushNotifications).toBe(true);

    const { creator, mission } = await openMission(t, { verification: { type: "creator_judges", params: {} } });
    const solver = await signIn(t);
    let client = await a2aClient(t, solver.token);
    const sent = (await client.sendMessage(a2aMessage({ mission_id: mission.id, content: "my report" }))) as Task;
    expect(taskStateToJSON(sent.status!.state)).toBe("TASK_STATE_SUBMITTED");

    rx.refuseVerification("/third-party");
    const mine = await client.createTaskPushNotificationConfig(config(sent.id, "/a2a-hook", "tok-abc-123"));
    expect(mine).toMatchObject({ taskId: sent.id, url: `${rx.base}/a2a-hook`, token: "tok-abc-123" });
    expect(mine.id).toMatch(/^whk_/);
    const third = await client.createTaskPushNotificationConfig(config(sent.id, "/third-party", "tok-x"));
    expect((await client.getTaskPushNotificationConfig({ tenant: "", taskId: sent.id, id: mine.id })).url).toBe(
      mine.url,
    );
    const listed = await client.listTaskPushNotificationConfig({
      tenant: "",
      taskId: sent.id,
      pageSize: 0,
      pageToken: "",
    });
    expect(listed.configs.map((c) => c.id).sort()).toEqual([mine.id, third.id].sort());
    // Push configs are not REST webhooks: GET /webhooks does not list them.
    expect((await t.call("GET", "/webhooks", { token: solver.token })).body.webhooks).toEqual([]);

    await runWebhookJobs(t.deps); // the challenges: /a2a-hook echoes it, /third-party does not
    expect(rx.verifications).toContain("/a2a-hook");

    t.clock.set(new Date(new Date(mission.deadline).getTime() + 1000));
    await sweepDueMissions(t.deps);
    client = await a2aClient(t, (await signIn(t, solver.account)).token);
    const award = await t.call("POST", `/missions/${mission.id}/award`, {
      token: (await signIn(t, creator.account)).token,
      body: { winners: [{ submission_id: sent.id }] },
    });
    expect(award.status, award.text).toBe(200);
    expect(
      taskStateToJSON((await client.getTask({ tenant: "", id: sent.id, historyLength: undefined })).status!.state),
    ).toBe("TASK_STATE_COMPLETED");
    // Several rounds, with time passing: the third party's challenges are retried, never passed.
    for (let i = 0; i < 6; i++) {
      await runWebhookJobs(t.deps);
      t.clock.advance(3 * 3_600_000);
    }

    const got = rx.at("/a2a-hook");
    expect(got.length).toBeGreaterThan(0);
    for (const r of got) {
      expect(r.headers["x-a2a-notification-token"]).toBe("tok-abc-123");
      expect(r.headers["content-type"]).toMatch(/^application\/a2a\+json/);
    }
    const last = Task.fromJSON((JSON.parse(got.at(-1)!.body) as { task: unknown }).task);
    expect(last.id).toBe(sent.id);
    expect(taskStateToJSON(last.status!.state)).toBe("TASK_STATE_COMPLETED");
    expect(last.artifacts.map((a) => a.name)).toEqual(["payout"]);
    // The third party saw challenges only (bounded), never a task.
    const toThird = rx.at("/third-party");
    expect(toThird.length).toBeGreaterThan(0);
    expect(toThird.length).toBeLessThanOrEqual(5);
    for (const r of toThird) expect(JSON.parse(r.body)).toMatchObject({ type: "webhook.verification" });
    expect(toThird.some((r) => r.body.includes('"task"'))).toBe(false);

    await client.deleteTaskPushNotificationConfig({ tenant: "", taskId: sent.id, id: third.id });
    const after = await client.listTaskPushNotificationConfig({
      tenant: "",
      taskId: sent.id,
      pageSize: 0,
      pageToken: "",
    });
    expect(after.configs.map((c) => c.id)).toEqual([mine.id]);
  });

  it("configs are the task owner's, bounded per task, and loopback or plain third-party URLs are refused", async () => {
    const { mission } = await openMission(t, { verification: { type: "creator_judges", params: {} } });
    const solver = await signIn(t);
    const other = await signIn(t);
    const client = await a2aClient(t, solver.token);
    const sent = (await client.sendMessage(a2aMessage({ mission_id: mission.id, content: "x" }))) as Task;
    // Someone else's task is TaskNotFound.
    await expect(
      (await a2aClient(t, other.token)).createTaskPushNotificationConfig(config(sent.id, "/h")),
    ).rejects.toThrow(/not found/);
    // Loopback and plain http to a public host are refused at creation.
    for (const url of ["http://127.0.0.1:9/h", "http://localhost/h", "http://example.org/h"])
      await expect(client.createTaskPushNotificationConfig({ ...config(sent.id, "/h"), url })).rejects.toThrow(
        /url refused/,
      );
    // Concurrent creations (on PostgreSQL, several connections): the per-task cap still holds.
    const tries = await Promise.allSettled(
      Array.from({ length: MAX_PUSH_CONFIGS_PER_TASK + 3 }, (_, i) =>
        client.createTaskPushNotificationConfig(config(sent.id, `/h${i}`)),
      ),
    );
    expect(tries.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_PUSH_CONFIGS_PER_TASK);
    for (const r of tries) if (r.status === "rejected") expect(String(r.reason)).toMatch(/at most/);
    const listed = await client.listTaskPushNotificationConfig({
      tenant: "",
      taskId: sent.id,
      pageSize: 0,
      pageToken: "",
    });
    expect(listed.configs).toHaveLength(MAX_PUSH_CONFIGS_PER_TASK);
  });
});
