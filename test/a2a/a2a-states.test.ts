import { describe, expect, it } from "vitest";
import { taskState } from "../../src/features/a2a/a2a.tasks";

// docs/a2a.md "States": the task state read from a submission and its mission.
describe("taskState", () => {
  const cases: [string, string, string, string][] = [
    ["pending", "open", "not_applicable", "TASK_STATE_SUBMITTED"],
    ["pending", "escrowed", "not_applicable", "TASK_STATE_WORKING"],
    ["accepted", "resolved", "queued", "TASK_STATE_WORKING"],
    ["accepted", "resolved", "broadcast", "TASK_STATE_WORKING"],
    ["accepted", "resolved", "confirmed", "TASK_STATE_COMPLETED"],
    ["rejected", "open", "not_applicable", "TASK_STATE_REJECTED"],
    ["rejected", "resolved", "confirmed", "TASK_STATE_REJECTED"],
    ["pending", "voided", "not_applicable", "TASK_STATE_CANCELED"],
    ["rejected", "voided", "not_applicable", "TASK_STATE_CANCELED"],
  ];
  it.each(cases)("submission %s, mission %s, payout %s → %s", (status, mission, payout, state) => {
    expect(taskState({ status } as never, { status: mission, payout_status: payout } as never)).toBe(state);
  });
});
