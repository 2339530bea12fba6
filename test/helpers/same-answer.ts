import { createHash } from "node:crypto";
import type { TestApp } from "./app";
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
