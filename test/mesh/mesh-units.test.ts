import { describe, expect, it } from "vitest";
import { checkSchema, MAX_SCHEMA_DEPTH, validate } from "../../src/features/mesh/mesh.json-schema";
import { createInvocationSlots } from "../../src/features/mesh/mesh.slots";

// Agent Mesh (docs/neighbours.md): the hub's JSON Schema subset and its in-flight slots.

describe("the skill schemas' JSON Schema subset", () => {
  const schema = {
    type: "object",
    required: ["query"],
    properties: {
      query: { type: "string", minLength: 1, maxLength: 5 },
      n: { type: "integer", minimum: 1, maximum: 10 },
      mode: { enum: ["fast", "deep"] },
      ids: { type: "array", items: { type: "number", multipleOf: 0.5 }, maxItems: 3, uniqueItems: true },
      either: { anyOf: [{ type: "string" }, { type: "null" }] },
      one: { oneOf: [{ type: "integer" }, { type: "number", minimum: 0 }] },
    },
    additionalProperties: false,
  };

  it("accepts the subset and annotations; refuses $ref, pattern, unknown keywords, bad values and depth", () => {
    expect(checkSchema(schema)).toEqual([]);
    expect(checkSchema({ $schema: "x", title: "t", format: "email", examples: [1], type: "string" })).toEqual([]);
    expect(checkSchema(true)).toEqual([]);
    expect(checkSchema({ $ref: "#/x" })[0]!.path).toBe("#/$ref");
    expect(checkSchema({ properties: { a: { pattern: "^a+$" } } })[0]!.path).toBe("#/properties/a/pattern");
    expect(checkSchema({ if: {} })).toHaveLength(1);
    expect(checkSchema({ type: "str" })).toHaveLength(1);
    expect(checkSchema({ minLength: -1 })).toHaveLength(1);
    expect(checkSchema({ multipleOf: 0 })).toHaveLength(1);
    expect(checkSchema({ anyOf: [] })).toHaveLength(1);
    expect(checkSchema({ required: "a" })).toHaveLength(1);
    expect(checkSchema(7)).toHaveLength(1);
    let deep: unknown = { type: "string" };
    for (let i = 1; i < MAX_SCHEMA_DEPTH; i++) deep = { items: deep };
    expect(checkSchema(deep)).toEqual([]);
    expect(checkSchema({ items: deep })[0]!.message).toMatch(/at most 16 levels/);
  });

  it("validates values, naming each problem's path", () => {
    expect(validate(schema, { query: "abc", n: 3, mode: "fast", ids: [1, 1.5], either: null, one: -1 })).toEqual([]);
    const problems = validate(schema, { query: "", n: 2.5, mode: "slow", ids: [1, 1, 0.3, 4], extra: 1, either: 3 });
    expect(problems.map((p) => p.path).sort()).toEqual(
      ["#/query", "#/n", "#/mode", "#/ids", "#/ids", "#/ids/2", "#/extra", "#/either"].sort(),
    );
    expect(validate(schema, { one: 2 }).map((p) => p.message)).toEqual(
      expect.arrayContaining(["is required", "must match exactly one oneOf schema"]),
    );
    expect(validate(schema, "x")).toEqual([{ path: "#", message: "must be object, is string" }]);
    // required looks at own properties only, never the prototype
    expect(validate({ required: ["toString"] }, {})).toEqual([{ path: "#/toString", message: "is required" }]);
    expect(validate({ const: { a: [1] } }, { a: [1] })).toEqual([]);
    expect(validate({ not: { type: "null" } }, null)).toHaveLength(1);
    expect(validate(false, 1)).toHaveLength(1);
  });

  it("reports at most 10 problems", () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 1]));
    expect(validate({ additionalProperties: { type: "string" } }, many)).toHaveLength(10);
  });
});

describe("invocation slots", () => {
  const ok = (r: ReturnType<ReturnType<typeof createInvocationSlots>["tryAcquire"]>) => "release" in r;

  it("caps per caller, per provider and in total", () => {
    const s = createInvocationSlots({ total: 10, perCaller: 2, perProvider: 2, reserve: 0 });
    expect([s.tryAcquire("x", "p"), s.tryAcquire("y", "p")].every(ok)).toBe(true);
    expect(s.tryAcquire("z", "p")).toEqual({ refused: "provider_busy" });
    expect(ok(s.tryAcquire("x", "q"))).toBe(true);
    expect(s.tryAcquire("x", "r")).toEqual({ refused: "caller_busy" });
  });

  it("keeps the last reserve slots for a caller and a provider that both have nothing in flight", () => {
    const s = createInvocationSlots({ total: 6, perCaller: 3, perProvider: 4, reserve: 2 });
    const first = s.tryAcquire("a", "p");
    expect([first, s.tryAcquire("a", "p"), s.tryAcquire("b", "p"), s.tryAcquire("a", "q")].every(ok)).toBe(true);
    expect(s.tryAcquire("a", "r")).toEqual({ refused: "caller_busy" }); // a at its cap of 3
    // 2 free = the reserve: not for p (3 in flight) nor for b (1 in flight)
    expect(s.tryAcquire("c", "p")).toEqual({ refused: "provider_busy" });
    expect(s.tryAcquire("b", "s")).toEqual({ refused: "caller_busy" });
    expect([s.tryAcquire("e", "t"), s.tryAcquire("f", "u")].every(ok)).toBe(true);
    expect(s.tryAcquire("g", "v")).toEqual({ refused: "hub_busy" });
    expect(s.held()).toBe(6);
    if (ok(first) && "release" in first) {
      first.release();
      first.release(); // released exactly once
    }
    expect(s.held()).toBe(5);
  });
});
