import { createHash } from "node:crypto";
import type { TestApp } from "./app";
import { runPendingChecks } from "../../src/jobs/checks";
import { openMission, signIn } from "./agents";
import { startReceiver } from "./receiver";

/**
 * One answer ("the answer is 42") served by a local receiver at /a and /b, so two agents can
 * submit the same content by reference (AIP-4 §6.1 dup_claim); close `rx` when done.
 */
export async function serveSameAnswer() {
  const body = "the answer is 42";
  const rx = await startReceiver({ "/a": () => ({ status: 200, body }), "/b": () => ({ status: 200, body }) });
  const hash = `sha256:${createHash("sha256").update(body).digest("hex")}`;
  return {
    rx,
    /** A submission of the content at `path` (checked later by the job); its response body. */
    submit: async (t: TestApp, missionId: string, who: { token: string }, path: "/a" | "/b") =>
      (
        await t.call("POST", `/missions/${missionId}/submissions`, {
          token: who.token,
          body: { content_uri: `${rx.base}${path}`, content_hash: hash },
        })
      ).body,
  };
}

/**
 * A first_valid_match mission ("42") that two agents answer in the same manual-clock second, `a`
 * by /a first and `b` by /b second, both checked (the job checks remote content in arrival order).
 */
export async function sameSecondAnswers(t: TestApp, answer: Awaited<ReturnType<typeof serveSameAnswer>>) {
  const { mission } = await openMission(t, {
    verification: { type: "first_valid_match", params: { expected: "42" } },
  });
  const [a, b] = [await signIn(t), await signIn(t)];
  const sa = await answer.submit(t, mission.id, a, "/a");
  const sb = await answer.submit(t, mission.id, b, "/b");
  await runPendingChecks(t.deps);
  return { mission, a, b, sa, sb };
}

/** The body of a dup_claim dispute (AIP-4 §6.1): `mine` was first, `other` the same second. */
export const dupClaim = (missionId: string, mine: string, other: string) => ({
  dispute_type: "dup_claim",
  mission_id: missionId,
  submission_id: mine,
  evidence: { description: "same second", other_submission_id: other },
});
