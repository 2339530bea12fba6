import { describe, expect, it } from "vitest";
import { openMission, signIn } from "../helpers/agents";
import { useTestApp } from "../helpers/suite-app";

// A2A §3.3.1 on the REST Idempotency-Key machinery: one messageId sent many times at once makes
// exactly one submission; every answer is that task or the in-flight refusal (run with
// DATABASE_URL for real concurrency, docs/testing.md).
const t = useTestApp();

describe("a retried messageId", () => {
  it("concurrent copies of one message make one submission", async () => {
    const { mission } = await openMission(t);
    const { token } = await signIn(t);
    const send = () =>
      t.call("POST", "/a2a", {
        token,
        headers: { "a2a-version": "1.0" },
        body: {
          jsonrpc: "2.0",
          id: 1,
          method: "SendMessage",
          params: {
            message: {
              messageId: "retry-1",
              role: "ROLE_USER",
              parts: [{ data: { mission_id: mission.id, content: "x" } }],
            },
          },
        },
      });
    const answers = await Promise.all(Array.from({ length: 6 }, send));
    const ids = new Set<string>();
    for (const a of answers) {
      if (a.body.result) ids.add(a.body.result.task.id);
      else expect(a.body.error.data[0].metadata.reason, a.text).toBe("idempotency_in_flight");
    }
    expect(ids.size).toBe(1);
    const again = await send();
    expect(again.body.result.task.id).toBe([...ids][0]);
    expect((await t.call("GET", `/missions/${mission.id}`)).body.submission_count).toBe(1);
  });
});
