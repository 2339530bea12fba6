import { join, resolve } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// docs/architecture.md "The verb and its context": an exported function of src/features/ takes
// (ctx, input) — at most two parameters, no `now` parameter. ESLint's local rule
// (eslint-rules/feature-signatures.js, wired in eslint.config.js) holds it; `npm run lint` runs it
// on the whole tree, these planted files prove it bites.

const ROOT = resolve(import.meta.dirname, "../..");
const RULE = "local/feature-signatures";
const eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => ruleId === RULE });

async function signatureErrors(code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

describe("feature function signatures", () => {
  it("fails a planted function of three parameters, an arrow of four and a `now` parameter", async () => {
    const planted = [
      "export async function wide(ctx: unknown, a: string, b: string) { return [ctx, a, b]; }",
      "export const arrow = (a: number, b: number, c: number, d: number) => a + b + c + d;",
      "export function late(ctx: unknown, now: Date) { return [ctx, now]; }",
      "export const later = (ctx: unknown, now = new Date()) => [ctx, now];",
    ].join("\n");
    const errors = await signatureErrors(planted, "src/features/claims/planted.ts");
    expect(errors).toHaveLength(4);
    expect(errors[0]).toMatch(/^wide takes 3 parameters/);
    expect(errors[1]).toMatch(/^arrow takes 4 parameters/);
    expect(errors[2]).toMatch(/^late takes `now`/);
    expect(errors[3]).toMatch(/^later takes `now`/);
  }, 60_000);

  it("passes (ctx, input), `this`, private helpers, the browser bundle and code outside the features", async () => {
    const fine = [
      "export async function verb(ctx: { now: Date }, input: { a: string; b: string }) { return [ctx.now, input]; }",
      "export function bound(this: unknown, a: string, b: string) { return [this, a, b]; }",
      "function helper(a: string, b: string, c: string) { return a + b + c; }",
      "export const use = (a: string) => helper(a, a, a);",
    ].join("\n");
    expect(await signatureErrors(fine, "src/features/claims/planted.ts")).toEqual([]);
    const wide = "export function wide(a: string, b: string, c: string) { return a + b + c; }\n";
    expect(await signatureErrors(wide, "src/features/web/client/planted.ts")).toEqual([]);
    expect(await signatureErrors(wide, "src/lib/planted.ts")).toEqual([]);
  }, 60_000);
});
