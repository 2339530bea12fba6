import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { OpenAPIHono } from "@hono/zod-openapi";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { handleError, reasonCheck } from "../../src/http/errors";
import { errors, router } from "../../src/http/openapi";
import { routes } from "../../src/http/route";
import type { AppEnv } from "../../src/http/types";
import { REASONS } from "../../src/lib/error-reasons";
import { AppError } from "../../src/lib/errors";
import { renderOpenApi } from "../../scripts/write-openapi";

// Refusal reasons as a contract (docs/api.md "Errors").

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (/\.tsx?$/.test(e.name)) yield p;
  }
}

/** Every `new AppError("CODE", …, { reason: "literal" })` in src/, as "CODE reason file:line". */
function literalReasons(): { code: string; reason: string; at: string }[] {
  const out: { code: string; reason: string; at: string }[] = [];
  for (const file of sources(path.resolve("src"))) {
    const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node) => {
      if (ts.isNewExpression(n) && n.expression.getText() === "AppError") {
        const [code, , details] = n.arguments ?? [];
        const codes = code && ts.isStringLiteral(code) ? [code.text] : [];
        if (code && ts.isConditionalExpression(code))
          for (const b of [code.whenTrue, code.whenFalse]) if (ts.isStringLiteral(b)) codes.push(b.text);
        for (const p of details && ts.isObjectLiteralExpression(details) ? details.properties : []) {
          if (!ts.isPropertyAssignment(p) || p.name.getText() !== "reason") continue;
          const at = `${path.relative(".", file)}:${sf.getLineAndCharacterOfPosition(p.getStart()).line + 1}`;
          const values = ts.isStringLiteral(p.initializer)
            ? [p.initializer.text]
            : ts.isConditionalExpression(p.initializer)
              ? [p.initializer.whenTrue, p.initializer.whenFalse].filter(ts.isStringLiteral).map((s) => s.text)
              : [];
          for (const c of codes) for (const reason of values) out.push({ code: c, reason, at });
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

describe("the reason vocabulary", () => {
  it("holds every reason literal an AppError in src/ is thrown with, under its code", () => {
    const found = literalReasons();
    expect(found.length).toBeGreaterThan(150);
    const vocabulary: Record<string, Record<string, string>> = REASONS;
    const missing = found.filter((f) => !Object.hasOwn(vocabulary[f.code] ?? {}, f.reason));
    expect(missing).toEqual([]);
  });

  it("gives every reason a one-line meaning in snake_case or a contract's error name", () => {
    for (const [code, reasons] of Object.entries(REASONS))
      for (const [reason, meaning] of Object.entries(reasons)) {
        expect(reason, code).toMatch(/^([a-z][a-z0-9_]*|[A-Z][A-Za-z]+)$/);
        expect(meaning, `${code} ${reason}`).toMatch(/^[^\n]{8,200}$/);
      }
  });
});

describe("a route's declared reasons", () => {
  const route = routes("test");
  const voteRoute = route.post("/vote", "A test route", {
    ok: [204, "Voted"],
    errors: [["CONFLICT", "already_voted"], "UNPROCESSABLE"],
  });

  function app(thrown: AppError) {
    const api = router().openapi(voteRoute, () => {
      throw thrown;
    });
    const a = new OpenAPIHono<AppEnv>();
    a.onError(handleError);
    a.route("/", api);
    return a;
  }

  async function found(thrown: AppError) {
    reasonCheck.on = true;
    try {
      const res = await app(thrown).request("/vote", { method: "POST" });
      return { status: res.status, body: await res.json(), found: reasonCheck.found.splice(0) };
    } finally {
      reasonCheck.on = false;
    }
  }

  it("passes a reason the route declares for the code, and the body is unchanged", async () => {
    const r = await found(new AppError("CONFLICT", "you already voted", { reason: "already_voted" }));
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({
      error: "CONFLICT",
      message: "you already voted",
      details: { reason: "already_voted" },
    });
    expect(r.found).toEqual([]);
  });

  it("records a reason the route does not declare, and one under a code declared without reasons", async () => {
    const r = await found(new AppError("CONFLICT", "voided", { reason: "has_submissions" }));
    expect(r.status).toBe(409);
    expect(r.found).toEqual(["POST /vote CONFLICT has_submissions"]);
    const s = await found(new AppError("UNPROCESSABLE", "too many", { reason: "too_many_winners" }));
    expect(s.found).toEqual(["POST /vote UNPROCESSABLE too_many_winners"]);
  });

  it("passes the reasons every route answers (EVERY_ROUTE) and a refusal without a reason", async () => {
    expect((await found(new AppError("INVALID_PARAMETER", "bad", { reason: "too_deep" }))).found).toEqual([]);
    expect((await found(new AppError("CONFLICT", "no reason"))).found).toEqual([]);
  });

  it("lists the declared reasons as the enum of details.reason in the route's error response", () => {
    const conflict = errors(["CONFLICT", "already_voted"])[409]?.content["application/json"].schema;
    if (!conflict) throw new Error("no 409");
    expect(
      conflict.safeParse({ error: "CONFLICT", message: "m", request_id: "r", details: { reason: "already_voted" } })
        .success,
    ).toBe(true);
    expect(
      conflict.safeParse({ error: "CONFLICT", message: "m", request_id: "r", details: { reason: "nope" } }).success,
    ).toBe(false);
  });
});

describe("/openapi.json", () => {
  const doc = JSON.parse(renderOpenApi()) as {
    paths: Record<
      string,
      Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
    >;
  };
  const reasonsAt = (p: string, method: string, status: number): string[] =>
    [
      ...JSON.stringify(doc.paths[p]?.[method]?.responses[status] ?? {}).matchAll(
        /"reason":\{"type":"string","enum":\[([^\]]*)\]/g,
      ),
    ].flatMap((m) => JSON.parse(`[${m[1]}]`) as string[]);

  it("lists a route's reasons per status", () => {
    expect(reasonsAt("/missions/{id}/votes", "post", 409)).toEqual(expect.arrayContaining(["already_voted"]));
    expect(reasonsAt("/missions/{id}/claims", "post", 409)).toEqual(
      expect.arrayContaining(["claim_limit", "exclusively_claimed", "max_claims_reached"]),
    );
    expect(reasonsAt("/auth/siwe", "post", 401)).toEqual(expect.arrayContaining(["invalid_nonce", "wrong_domain"]));
  });
});
