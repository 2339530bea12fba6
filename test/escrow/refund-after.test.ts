import { describe, expect, it } from "vitest";
import type { Verification } from "../../src/db/verification";
import { REFUND_GRACE_SECONDS, refundAfterFor } from "../../src/features/rail/rail.terms";

// A base-rail deposit's refund-after time (docs/base-rail.md "Trust model") covers the last moment
// a payout can be decided: the deadline, the judging or oracle window, an appeal and its vote.
const DAY = 86_400;
const deadline = new Date("2026-12-01T00:00:00Z");
const at = deadline.getTime() / 1000;
const cfg = { judgingWindowSeconds: 7 * DAY, oracleWindowSeconds: 7 * DAY };
const cj = (params: Partial<Extract<Verification, { type: "creator_judges" }>["params"]>): Verification => ({
  type: "creator_judges",
  params: { max_winners: 1, ...params },
});

describe("refundAfterFor", () => {
  it("a creator_judges mission's own judging window, when longer than the server's, moves the refund-after time", () => {
    expect(refundAfterFor(cfg, { deadline, verification: cj({ judging_window_seconds: 30 * DAY }) })).toBe(
      at + 30 * DAY + REFUND_GRACE_SECONDS,
    );
    // A mission stored before it stated a window: the server's.
    expect(refundAfterFor(cfg, { deadline, verification: cj({}) })).toBe(at + 7 * DAY + REFUND_GRACE_SECONDS);
  });

  it("an appeal adds its dispute window and the vote after it, each appeal_window_seconds long", () => {
    const appeal = { appeal_window_seconds: 30 * DAY, vote_token: "USDC", min_vote: "1", quorum: "10" };
    expect(refundAfterFor(cfg, { deadline, verification: cj({ judging_window_seconds: 3600, appeal }) })).toBe(
      at + 7 * DAY + 60 * DAY + REFUND_GRACE_SECONDS,
    );
  });
});
