import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, makeTestApp, type TestApp } from "../helpers/app";
import { credit, missionBody, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { csrfTokenFor, sessionCookieName } from "../../src/http/session-cookie";
import { FORBIDDEN, UNAUTHORIZED, type Expected, type World } from "./security-matrix.rules";
import { MATRIX } from "./security-matrix.table";

// One security matrix over every secured operation of openapi/openapi.json
// (unkey runs its shared route tests on every endpoint). The operations are read from the document;
// the per-operation fixtures live in security-matrix.table.ts, keyed by "METHOD /path". Columns:
// anonymous (also under /api, on unknown ids, with an invalid body), an unbound api_key, a malformed
// or foreign Authorization, an expired bearer, cookie writes without CSRF, an expired cookie, another
// agent (or a normal agent on an operator route), and the operator's admin token. Every answer must
// be a status the operation declares, with the one error body (or AIP-1 §1.4's exact body).
// Adding a secured route: add its row to the table; the coverage test names the missing key.

interface Operation {
  key: string;
  method: string;
  path: string;
  statuses: Set<string>;
  hasBody: boolean;
}

const doc = JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8")) as {
  paths: Record<
    string,
    Record<string, { security?: unknown[]; responses?: Record<string, unknown>; requestBody?: unknown }>
  >;
};
const METHODS = new Set(["get", "post", "put", "patch", "delete"]);

/** Sign-in itself answers 401 for a bad signature; it issues credentials rather than reading them. */
const ISSUES_CREDENTIALS = new Set(["POST /auth/siwe"]);
/**
 * A JSON-RPC binding answers every refusal in its own envelope (docs/a2a.md "Errors and bounds"):
 * its caller matrix (anonymous 401, another agent's task, strict payloads) is test/a2a/a2a-card.int.test.ts.
 */
const OWN_ENVELOPE = new Set(["POST /a2a"]);

/**
 * Secured: the operation names a security requirement. Submissions (AIP-1 §1.4: anonymous callers
 * get their own 403) and POST /disputes (AIP-4 §2.2: optional, `[{ bearer: [] }, {}]`) name one too.
 * Every operation declares 401 (a malformed bearer is refused before any route), so a 401 alone
 * does not mark one.
 */
const SECURED: Operation[] = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops)
    .filter(([method, op]) => METHODS.has(method) && (op.security?.length ?? 0) > 0)
    .filter(([method]) => !ISSUES_CREDENTIALS.has(`${method.toUpperCase()} ${path}`))
    .filter(([method]) => !OWN_ENVELOPE.has(`${method.toUpperCase()} ${path}`))
    .map(([method, op]) => ({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      statuses: new Set(Object.keys(op.responses ?? {})),
      hasBody: op.requestBody !== undefined,
    })),
);

type Res = Awaited<ReturnType<TestApp["call"]>>;

/** The declared answer: its status is listed in the operation's responses and the body is JSON with that error code. */
function expectDeclared(op: Operation, r: Res, { status, code, reason }: Expected) {
  expect(op.statuses, `${op.key} does not declare ${status}`).toContain(String(status));
  // AIP-1 §1.4 fixes the anonymous-submission body to exactly {"error": …}; everything else is the
  // one error body of docs/design.md "Wire conventions".
  if (code === "ANONYMOUS_SUBMISSION_REJECTED") {
    expect(r.status, r.text).toBe(status);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.body).toEqual({ error: code });
  } else {
    expectError(r, status, code);
  }
  if (reason) expect(r.body.details?.reason, r.text).toBe(reason);
}

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await makeTestApp();
  w = await buildWorld(t);
}, 60_000);
afterAll(async () => t?.close());

/** The fixtures, through real HTTP: each step must succeed or the whole file fails loudly. */
async function buildWorld(t: TestApp): Promise<World> {
  const [a, b, worker, expired] = [await signIn(t), await signIn(t), await signIn(t), await signIn(t)];
  const ok = (r: Res, status: number) => {
    if (r.status !== status) throw new Error(`fixture: ${r.status} ${r.text}`);
    return r.body;
  };
  await credit(t, a.address, 1_000_000_000n);
  const mission = async () => ok(await t.call("POST", "/missions", { token: a.token, body: missionBody(t) }), 201);
  // A's open mission: the worker submitted, holds a claim and filed a bad_spec dispute on it.
  const open = await mission();
  const openSubmission = ok(
    await t.call("POST", `/missions/${open.id}/submissions`, { token: worker.token, body: { content: "an answer" } }),
    201,
  );
  ok(await t.call("POST", `/missions/${open.id}/claims`, { token: worker.token }), 201);
  const dispute = ok(
    await t.call("POST", "/disputes", {
      token: worker.token,
      body: {
        dispute_type: "bad_spec",
        mission_id: open.id,
        evidence: { description: "the criteria contradict the title" },
      },
    }),
    201,
  );
  // On A's open mission the worker asked a public question and wrote A about its submission.
  const question = ok(
    await t.call("POST", `/missions/${open.id}/questions`, { token: worker.token, body: { body: "Which file?" } }),
    201,
  );
  const message = ok(
    await t.call("POST", `/missions/${open.id}/submissions/${openSubmission.id}/messages`, {
      token: worker.token,
      body: { body: "a private note" },
    }),
    201,
  );
  // A's resolved mission: A awarded the worker, then reviewed it.
  const done = await mission();
  const sub = ok(
    await t.call("POST", `/missions/${done.id}/submissions`, { token: worker.token, body: { content: "the key" } }),
    201,
  );
  ok(
    await t.call("POST", `/missions/${done.id}/award`, {
      token: a.token,
      body: { winners: [{ submission_id: sub.id, share_bps: 10_000 }] },
    }),
    200,
  );
  const review = ok(
    await t.call("POST", `/agents/${worker.address}/reviews`, {
      token: a.token,
      body: { mission_id: done.id, stars: 5 },
    }),
    201,
  );
  const webhook = ok(
    await t.call("POST", "/webhooks", {
      token: a.token,
      body: { url: "https://hooks.example.com/oabp", events: ["mission.created"] },
    }),
    201,
  );
  const skill = ok(
    await t.call("POST", "/skills", {
      token: a.token,
      body: { name: "matrix_skill", description: "a skill of A's", endpoint: "https://skills.example.com/a" },
    }),
    200,
  );
  return {
    a,
    b,
    worker,
    expired,
    openMissionId: open.id,
    openSubmissionId: openSubmission.id,
    resolvedMissionId: done.id,
    reviewId: review.id,
    webhookId: webhook.id,
    disputeId: dispute.dispute_id,
    questionId: question.id,
    messageId: message.id,
    skillId: skill.id,
    deadline: missionBody(t).deadline,
  };
}

interface CallOpts {
  token?: string;
  headers?: Record<string, string>;
  prefix?: string;
  /** Replace the fixture body (an invalid one, to see whether validation answers first). */
  body?: unknown;
  /** Point the path at ids nothing has (same prefixes, unknown values). */
  unknownIds?: boolean;
  /** Appended to the path (a query string). */
  query?: string;
}

const UNKNOWN_ID = /\b([a-z]{2,5})_[0-9A-Z]{26}\b/g;
const UNKNOWN_ADDRESS = `0x${"5e".repeat(20)}`;
/** Dispute ids are UUIDs (AIP-4 §2.3). */
const UNKNOWN_UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

const call = (op: Operation, o: CallOpts = {}) => {
  const req = MATRIX[op.key]!.request(w);
  let path = req.path;
  if (o.unknownIds) {
    path = path
      .replace(UNKNOWN_ID, "$1_01JZ0000000000000000000000")
      .replace(/0x[0-9a-f]{40}/g, UNKNOWN_ADDRESS)
      .replace(UNKNOWN_UUID, "01a21f13-0000-7000-8000-000000000000");
    if (path === req.path) throw new Error(`${op.key}: no id in ${path} to replace`);
  }
  return t.call(op.method, `${o.prefix ?? ""}${path}${o.query ?? ""}`, {
    body: "body" in o ? o.body : req.body,
    token: o.token,
    headers: o.headers,
  });
};

describe("the matrix is generated from openapi/openapi.json", () => {
  it("covers exactly the secured operations of the document", () => {
    // A new secured route without a row in security-matrix.table.ts fails here (and a stale row too).
    expect(Object.keys(MATRIX).sort()).toEqual(SECURED.map((o) => o.key).sort());
    // Sanity: the document still marks operations secured the way this file reads them.
    expect(SECURED.length).toBeGreaterThanOrEqual(30);
  });

  it("every /admin operation is a secured, operator-only row", () => {
    const admin = Object.entries(doc.paths).flatMap(([path, ops]) =>
      path.startsWith("/admin/")
        ? Object.keys(ops)
            .filter((m) => METHODS.has(m))
            .map((m) => `${m.toUpperCase()} ${path}`)
        : [],
    );
    expect(admin.length).toBeGreaterThan(0);
    for (const key of admin) expect(MATRIX[key]?.operatorOnly, key).toBe(true);
  });
});

describe.each(SECURED.map((op) => [op.key, op] as const))("%s", (_key, op) => {
  const entry = MATRIX[op.key];
  if (!entry) {
    it("has a row in security-matrix.table.ts", () => expect.fail(`no matrix row for ${op.key}`));
    return;
  }
  const anonymous = entry.anonymous ?? UNAUTHORIZED;

  it("anonymous → the declared refusal, at / and under /api", async () => {
    for (const prefix of ["", "/api"]) expectDeclared(op, await call(op, { prefix }), anonymous);
  });

  if (op.path.includes("{") && !entry.unknownIdsOnly) {
    it("anonymous on ids that do not exist → the same refusal (no existence oracle)", async () => {
      expectDeclared(op, await call(op, { unknownIds: true }), anonymous);
    });
  }

  if (op.hasBody) {
    // The AIP-1 §1.4 routes (rejectAnonymousPosts) and the routes that always need a caller
    // (requireCaller) look at the caller before the zod validator; where an anonymous caller may
    // act depending on the body, the validator runs first and the row says so
    // (validatesBeforeAuth). Never an existence oracle: ids are looked up later.
    const first = entry.validatesBeforeAuth
      ? "400 INVALID_PARAMETER (validation answers first)"
      : `${anonymous.status} ${anonymous.code}`;
    it(`anonymous with an invalid body → ${first}`, async () => {
      const r = await call(op, { body: { unexpected: [] } });
      expectDeclared(op, r, entry.validatesBeforeAuth ? { status: 400, code: "INVALID_PARAMETER" } : anonymous);
    });
  }

  it("malformed or foreign credentials → 401 UNAUTHORIZED", async () => {
    for (const authorization of [
      "Bearer x",
      "Bearer not-a-token-%%%",
      "Bearer two words",
      "Bearer",
      `Basic ${Buffer.from("a:b").toString("base64")}`,
    ]) {
      expectDeclared(op, await call(op, { headers: { authorization } }), UNAUTHORIZED);
    }
  });

  it("an api_key no registry attestation bound (X-Api-Key, ?api_key) → the anonymous refusal", async () => {
    // AIP-1 §1.4: an unbound key is no identity; the caller is anonymous, not an error.
    expectDeclared(op, await call(op, { headers: { "x-api-key": "key-nobody-bound" } }), anonymous);
    expectDeclared(op, await call(op, { query: "?api_key=key-nobody-bound" }), anonymous);
  });

  if (op.method !== "GET") {
    it("A's session cookie on a write without X-CSRF-Token → 403 FORBIDDEN", async () => {
      // docs/web.md: a browser session must echo its CSRF token on every state-changing request.
      const cookie = `${sessionCookieName(false)}=${w.a.token}`;
      expectDeclared(op, await call(op, { headers: { cookie } }), {
        ...FORBIDDEN,
        reason: "csrf_token_missing_or_wrong",
      });
      expectDeclared(op, await call(op, { headers: { cookie, "x-csrf-token": "not-the-token" } }), {
        ...FORBIDDEN,
        reason: "csrf_token_missing_or_wrong",
      });
    });
  }

  it("a session cookie past its TTL → the anonymous refusal", async () => {
    const cookie = `${sessionCookieName(false)}=${w.expired.token}`;
    const before = t.clock.now();
    t.clock.advance(t.deps.config.sessionTtlSeconds * 1000 + 1000);
    try {
      expectDeclared(
        op,
        await call(op, { headers: { cookie, "x-csrf-token": csrfTokenFor(w.expired.token) } }),
        anonymous,
      );
    } finally {
      t.clock.set(before);
    }
  });

  it("a session past its TTL → 401 UNAUTHORIZED", async () => {
    // The same token works before expiry (GET /webhooks answers any live session).
    expect((await t.call("GET", "/webhooks", { token: w.expired.token })).status).toBe(200);
    const before = t.clock.now();
    t.clock.advance(t.deps.config.sessionTtlSeconds * 1000 + 1000);
    try {
      expectDeclared(op, await call(op, { token: w.expired.token }), UNAUTHORIZED);
    } finally {
      t.clock.set(before);
    }
  });

  const wrong = entry.wrongCaller;
  // Rows marked notApplicable carry their reason in the table and get no test here.
  if (wrong && !("notApplicable" in wrong)) {
    const who = entry.operatorOnly
      ? "a normal agent on an operator route"
      : (wrong.label ?? "another agent on A's resource");
    it(`${who} → ${wrong.status}`, async () => {
      const r = await call(op, { token: (wrong.by ?? ((x: World) => x.b))(w).token });
      if (wrong.code) expectDeclared(op, r, { ...wrong, code: wrong.code });
      else {
        expect(r.status, r.text).toBe(wrong.status);
        expect(op.statuses).toContain(String(wrong.status));
      }
      await wrong.after?.(t, w, r);
    });
  }

  const admin = entry.adminToken ?? (entry.operatorOnly ? "operator" : FORBIDDEN);
  // Rows the operator may call are exercised by their own suites (a call here would act).
  if (admin !== "operator") {
    it(`the operator's admin token → ${admin.status} ${admin.code}`, async () => {
      expectDeclared(op, await call(op, { token: ADMIN_TOKEN }), admin);
    });
  }
});
