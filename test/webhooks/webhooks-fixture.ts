import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { runWebhookJobs } from "../../src/jobs/webhooks";
import { signIn } from "../helpers/agents";
import type { Received } from "../helpers/receiver";
import { useTestApp } from "../helpers/suite-app";
import { useReceiver } from "../helpers/suite-receiver";

// What the webhook suites (webhooks.int.test.ts, webhooks-delivery.int.test.ts) set up: an app and
// a receiver on 127.0.0.2; deliveries are driven by calling the job with the manual clock (never by
// sleeping). Every test filters its subscriptions on a tag (or mission) of its own and listens on a
// path of its own, so tests share nothing.

export const uniqueTag = () => `wh-${randomBytes(4).toString("hex")}`;
export const byEventId = (rs: Received[]) =>
  [...rs].sort((a, b) => (a.headers["webhook-id"]! < b.headers["webhook-id"]! ? -1 : 1));
export const types = (rs: Received[]) => byEventId(rs).map((r) => JSON.parse(r.body).type as string);

export function useWebhookSuite() {
  const t = useTestApp();
  const rx = useReceiver();
  return {
    t,
    rx,
    run: () => runWebhookJobs(t.deps),
    /** POST /webhooks, which must succeed: the subscription with its one-time secret. */
    async subscribe(token: string, body: Record<string, unknown>) {
      const r = await t.call("POST", "/webhooks", { token, body });
      expect(r.status, r.text).toBe(201);
      return r.body as { id: string; secret: string; status: string };
    },
    /** A new agent's accepted submission. */
    async submit(missionId: string, body: Record<string, unknown>) {
      const a = await signIn(t);
      const r = await t.call("POST", `/missions/${missionId}/submissions`, { token: a.token, body });
      expect(r.status, r.text).toBe(201);
      return { ...a, submission: r.body as { id: string; status: string; reason: string } };
    },
  };
}
