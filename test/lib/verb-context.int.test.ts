import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { idempotencyKeys } from "../../src/db/schema/index";
import { ctxForJob, withTx } from "../../src/lib/context";
import { isAppError } from "../../src/lib/errors";
import { idempotent, onceTx } from "../../src/lib/idempotency";
import { useTestApp } from "../helpers/suite-app";

// The verb shape (docs/style.md "One verb shape"): withTx reuses the context's transaction, and
// idempotent() + onceTx run a verb once per (scope, key), answering with the router's status.

const t = useTestApp();

const keyRows = (scope: string) =>
  t.deps.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.scope, scope));

describe("withTx", () => {
  it("reuses an outer transaction: the inner write rolls back with the outer one", async () => {
    const ctx = ctxForJob(t.deps);
    const scope = "test withTx rollback";
    const err = await withTx(ctx, async (outer, inner) => {
      await withTx(inner, async (tx) => {
        expect(tx).toBe(outer);
        await tx
          .insert(idempotencyKeys)
          .values({ scope, key: "k", requestHash: "h", statusCode: "200", response: "{}", createdAt: ctx.now });
      });
      throw new Error("outer fails");
    }).catch((e: unknown) => e);
    expect(String(err)).toContain("outer fails");
    expect(await keyRows(scope)).toHaveLength(0);
  });
});

describe("idempotent", () => {
  const op = (scope: string, key: string | undefined, request: unknown) => ({
    key,
    scope,
    request,
    answer: (r: { n: number }) => ({ status: 202, body: r }),
  });

  it("runs a verb once per key and replays the stored text and the router's status", async () => {
    let runs = 0;
    const verb = (ctx: Parameters<typeof onceTx>[0]) => onceTx(ctx, async () => ({ n: ++runs }));
    const first = await idempotent(ctxForJob(t.deps), op("test once", "k1", { a: 1 }), verb);
    const again = await idempotent(ctxForJob(t.deps), op("test once", "k1", { a: 1 }), verb);
    expect(first).toEqual({ status: 202, body: '{"n":1}', replayed: false });
    expect(again).toEqual({ status: 202, body: '{"n":1}', replayed: true });
    expect(runs).toBe(1);
    const [row] = await t.deps.database.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, "test once"), eq(idempotencyKeys.key, "k1")));
    expect(row).toMatchObject({ statusCode: "202", response: '{"n":1}' });
  });

  it("refuses the same key with another request (422 idempotency_key_reused)", async () => {
    const verb = (ctx: Parameters<typeof onceTx>[0]) => onceTx(ctx, async () => ({ n: 1 }));
    await idempotent(ctxForJob(t.deps), op("test reuse", "k2", { a: 1 }), verb);
    const err = await idempotent(ctxForJob(t.deps), op("test reuse", "k2", { a: 2 }), verb).catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe("UNPROCESSABLE");
    expect(isAppError(err) && err.details).toMatchObject({ reason: "idempotency_key_reused" });
  });

  it("a failed verb leaves no key row, so a retry runs", async () => {
    let runs = 0;
    const failing = (ctx: Parameters<typeof onceTx>[0]) =>
      onceTx(ctx, async () => {
        runs++;
        throw new Error("boom");
      });
    await expect(idempotent(ctxForJob(t.deps), op("test fail", "k3", {}), failing)).rejects.toThrow("boom");
    expect(await keyRows("test fail")).toHaveLength(0);
    const ok = await idempotent(ctxForJob(t.deps), op("test fail", "k3", {}), (ctx) =>
      onceTx(ctx, async () => ({ n: ++runs })),
    );
    expect(ok).toEqual({ status: 202, body: '{"n":2}', replayed: false });
  });

  it("without a key the verb runs every time and nothing is stored", async () => {
    let runs = 0;
    const verb = (ctx: Parameters<typeof onceTx>[0]) => onceTx(ctx, async () => ({ n: ++runs }));
    await idempotent(ctxForJob(t.deps), op("test keyless", undefined, {}), verb);
    const second = await idempotent(ctxForJob(t.deps), op("test keyless", undefined, {}), verb);
    expect(second).toEqual({ status: 202, body: '{"n":2}', replayed: false });
    expect(await keyRows("test keyless")).toHaveLength(0);
  });
});
