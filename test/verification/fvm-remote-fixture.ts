import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { missions, submissions } from "../../src/db/schema/index";
import { treasuryBalances } from "../../src/features/ledger/ledger.service";
import { TEST_CONTENT_HOST } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { useCanary } from "../helpers/canary";
import { balanceOf } from "../helpers/judging";
import { useTestApp } from "../helpers/suite-app";

// What the first_valid_match suites with remote deliverables and predicates
// (fvm-remote*.int.test.ts) set up: an app, a server on TEST_CONTENT_HOST (127.0.0.2, the one
// loopback address the test fetcher may reach) that serves the deliverables and the predicates and
// records every request, and a canary on 127.0.0.1 that must never see a connection.

export interface Seen {
  method: string;
  path: string;
  body: string;
  headers: http.IncomingHttpHeaders;
}
interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}
type Handler = (req: Seen) => Reply | Promise<Reply>;

export const REWARD = 10_000_000n;
export const FEE = 50_000n; // 0.5 % (OABP_FEE_BPS default 50)
export const sha = (s: string) => `sha256:${createHash("sha256").update(s).digest("hex")}`;
export const fvm = (params: Record<string, unknown>) => ({
  verification: { type: "first_valid_match", params },
  reward: { asset: "USDC", amount: REWARD.toString() },
});

export function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export function useFvmRemote() {
  const t = useTestApp();
  const canary = useCanary();
  const handlers = new Map<string, Handler>();
  const seen: Seen[] = [];
  let base = "";
  const content = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rec: Seen = {
      method: req.method!,
      path: req.url!,
      body: Buffer.concat(chunks).toString("utf8"),
      headers: req.headers,
    };
    seen.push(rec);
    const handler = handlers.get(rec.path);
    const reply = handler ? await handler(rec) : { status: 404, body: "no such file" };
    res.writeHead(reply.status, { "content-type": "text/plain; charset=utf-8", ...reply.headers });
    res.end(reply.body ?? "");
  });
  beforeAll(async () => {
    await new Promise<void>((resolve, reject) => {
      content.once("error", reject);
      content.listen(0, TEST_CONTENT_HOST, resolve);
    });
    base = `http://${TEST_CONTENT_HOST}:${(content.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    content.closeAllConnections();
    await new Promise((r) => content.close(r));
  });
  let paths = 0;
  /** A fresh path on the content server, so tests never share a URL. */
  const fresh = (name: string) => `/${++paths}-${name}`;
  const submit = async (missionId: string, body: Record<string, unknown>) => {
    const agent = await signIn(t);
    const r = await t.call("POST", `/missions/${missionId}/submissions`, { token: agent.token, body });
    expect(r.status, r.text).toBe(201);
    return { agent, sub: r.body };
  };
  return {
    t,
    canary,
    seen,
    /** The content server's origin. */
    get base() {
      return base;
    },
    fresh,
    balance: (address: string) => balanceOf(t, address),
    treasury: async () => (await treasuryBalances(t.deps.database.db)).get("USDC") ?? 0n,
    hits: (path: string) => seen.filter((s) => s.path === path).length,
    serve: (path: string, reply: Reply | Handler) =>
      handlers.set(path, typeof reply === "function" ? reply : () => reply),
    getMission: async (id: string) => (await t.call("GET", `/missions/${id}`)).body,
    getSub: async (missionId: string, id: string) =>
      (await t.call("GET", `/missions/${missionId}/submissions/${id}`)).body,
    row: async (id: string) => (await t.deps.database.db.select().from(submissions).where(eq(submissions.id, id)))[0]!,
    submitRemote: (missionId: string, url: string, contentHash: string) =>
      submit(missionId, { content_uri: url, content_hash: contentHash }),
    submitInline: (missionId: string, content: string) => submit(missionId, { content }),
    /**
     * Mission creation only accepts an https predicate_uri (validation), and the test fetcher cannot
     * trust a self-signed certificate; so the mission is created with a placeholder https URL and its
     * stored params are then pointed at the plain-http predicate endpoint on TEST_CONTENT_HOST. The
     * verifier reads the params from the row, so this exercises exactly the production check path.
     */
    async predicateMission(extra: Record<string, unknown> = {}, target?: string) {
      const name = fresh("predicate");
      const { creator, mission } = await openMission(
        t,
        fvm({ predicate_uri: "https://predicate.example/check", ...extra }),
      );
      const params = { ...mission.verification.params, predicate_uri: target ?? `${base}${name}` };
      await t.deps.database.db.update(missions).set({ verificationParams: params }).where(eq(missions.id, mission.id));
      return { creator, mission, path: name };
    },
  };
}
