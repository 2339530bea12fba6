import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

// patches/postgres+3.4.9.patch is applied at install by patch-package (package.json
// "postinstall"); the failures it guards against are shown on a real server by
// test/db/unpipelined.int.test.ts (the first three fixes) and below (the fourth). This checks the driver the
// server loads carries every fix, in each of its builds, so an install that skipped the patch
// fails here at once.
// The package's exports name no package.json: its root is two levels above the CommonJS entry.
const dir = path.resolve(path.dirname(createRequire(import.meta.url).resolve("postgres")), "../..");
const FIXES = [
  { file: "connection.js", mark: "/* oabp: closed socket */" },
  { file: "connection.js", mark: "/* oabp: settle at close */" },
  { file: "index.js", mark: "/* oabp: reserved queue at close */" },
  { file: "queue.js", mark: "// oabp: live entries only" },
  { file: "queue.js", mark: "// oabp: drop the shifted-out half" },
];

describe("the installed postgres.js", () => {
  it("is the version the patch was made for", () => {
    const { version } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string };
    expect(version).toBe("3.4.9");
  });

  it.each(["src", "cjs/src", "cf/src"])("%s carries every fix of the patch", (build) => {
    for (const { file, mark } of FIXES) expect(readFileSync(path.join(dir, build, file), "utf8")).toContain(mark);
  });
});

// The fourth fix: a pool with every connection busy hands each new query to the oldest busy connection and
// moves it back among the busy ones (shift, remove, push). Unpatched, that queue's array grew by
// one entry per query and each move scanned all of it: CPU per query rose with uptime under load.
type Queue<T> = { shift(): T; remove(x: T): T | null; push(x: T): T; readonly length: number };
const queueModule = pathToFileURL(path.join(dir, "src", "queue.js")).href;

const indexOf = Array.prototype.indexOf;
afterEach(() => {
  Array.prototype.indexOf = indexOf;
});

describe("postgres.js pool queue (patched)", () => {
  it("a busy queue that never empties keeps its array bounded, and a move scans only live entries", async () => {
    const { default: Queue } = (await import(queueModule)) as { default: <T>(initial?: T[]) => Queue<T> };
    const connections = Array.from({ length: 10 }, (_, i) => ({ i }));
    const busy = Queue(connections);
    // Every indexOf the queue makes: the length of its array, and how much of it is searched.
    let [longest, scanned] = [0, 0];
    Array.prototype.indexOf = function (this: unknown[], x: unknown, from?: number) {
      [longest, scanned] = [Math.max(longest, this.length), Math.max(scanned, this.length - (from ?? 0))];
      return indexOf.call(this, x, from);
    };
    for (let q = 0; q < 50_000; q++) {
      const c = busy.shift(); // the oldest busy connection takes the query (index.js handler → go)
      expect(busy.remove(c)).toBeNull(); // move(c, busy): it is no longer among the live entries
      busy.push(c);
    }
    Array.prototype.indexOf = indexOf;
    expect(busy.length).toBe(connections.length);
    expect(longest).toBeLessThanOrEqual(2 * connections.length);
    expect(scanned).toBeLessThanOrEqual(connections.length);
    // Every connection is still there, once, and a remove finds each.
    for (const c of connections) expect(busy.remove(c)).toBe(c);
    expect(busy.length).toBe(0);
  });
});
