import { describe, expect, it } from "vitest";
import { refusalDelay } from "../../src/http/read-limits";

// docs/abuse-edge.md "Read limits": a refused read waits before its 429, but at most `maxHeld`
// refusals of one key wait at once; past that they are answered at once (no socket pile-up).
describe("refusal delay", () => {
  it("holds at most maxHeld refusals per key; the next, and another key's, are not held by them", async () => {
    const delay = refusalDelay(200, 2);
    const done: string[] = [];
    const held = [delay("a").then(() => done.push("a1")), delay("a").then(() => done.push("a2"))];
    await delay("a"); // third of key a: past maxHeld, answered at once
    expect(done).toEqual([]);
    await Promise.all(held);
    expect(done.sort()).toEqual(["a1", "a2"]);
    // Released places are reusable; a delay of 0 never holds.
    const zero = refusalDelay(0, 2);
    let answered = false;
    await zero("b").then(() => (answered = true));
    expect(answered).toBe(true);
  });
});
