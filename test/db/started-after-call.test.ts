import { describe, expect, it } from "vitest";
import { startedAfterCall } from "../../src/db/client";

// The shared write-token read (src/db/client.ts): every caller is answered by a run that started
// after its call, concurrent callers share one, and at most one run is in flight.
describe("startedAfterCall", () => {
  it("callers during a run share the next run, never the one already in flight", async () => {
    let runs = 0;
    let inFlight = 0;
    let most = 0;
    const gates: Array<() => void> = [];
    const read = startedAfterCall(async () => {
      const n = ++runs;
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise<void>((r) => gates.push(r));
      inFlight--;
      return n;
    });
    const a = read();
    expect(runs).toBe(1);
    const b = read();
    const c = read();
    expect(runs).toBe(1); // b and c wait for run 1 to end
    gates.shift()!();
    expect(await a).toBe(1);
    await Promise.resolve();
    expect(runs).toBe(2);
    const d = read(); // run 2 started before d: d gets run 3
    gates.shift()!();
    expect([await b, await c]).toEqual([2, 2]);
    await Promise.resolve();
    gates.shift()!();
    expect(await d).toBe(3);
    expect(most).toBe(1);
    // Nothing in flight: the next call starts a run at once.
    const e = read();
    expect(runs).toBe(4);
    gates.shift()!();
    expect(await e).toBe(4);
  });

  it("a failed run fails its callers only; the next call starts afresh", async () => {
    let fail = true;
    const read = startedAfterCall(async () => {
      await Promise.resolve();
      if (fail) throw new Error("down");
      return 7;
    });
    await expect(read()).rejects.toThrow("down");
    fail = false;
    expect(await read()).toBe(7);
  });
});
