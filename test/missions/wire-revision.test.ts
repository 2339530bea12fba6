import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { Mission } from "../../src/features/missions";
import { WIRE_REVISION, wireRevision } from "../../src/features/missions/missions.docs";

// The mission documents' wire revision is derived from the Mission schema (docs/decisions/engineering.md
// "Rules as checks"): a change of shape changes every list page's ETag without anyone bumping it.

describe("WIRE_REVISION", () => {
  it("is the hash of the Mission wire schema", () => {
    expect(WIRE_REVISION).toBe(wireRevision(Mission));
    expect(WIRE_REVISION).toMatch(/^mission-wire-\d+-[A-Za-z0-9_-]{12}$/);
  });

  it("changes when a field is added, removed or retyped", () => {
    const revisions = new Set([
      WIRE_REVISION,
      wireRevision(Mission.extend({ new_field: z.string() })),
      wireRevision(Mission.omit({ title: true })),
      wireRevision(Mission.extend({ submission_count: z.string() })),
      wireRevision(Mission.extend({ title: z.string().nullable() })),
    ]);
    expect(revisions.size).toBe(5);
  });

  it("does not change with the prose of the schema", () => {
    expect(wireRevision(Mission.extend({ title: z.string().openapi({ description: "reworded" }) }))).toBe(
      WIRE_REVISION,
    );
  });

  it("changes with the values epoch (a change of values for the same shape)", () => {
    expect(wireRevision(Mission, 2)).not.toBe(WIRE_REVISION);
  });
});
