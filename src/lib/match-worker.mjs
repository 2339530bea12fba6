// @ts-check
// Worker thread for src/lib/safe-regex.ts: runs RE2 (re2js) searches off the main event loop so a
// slow match can be killed (Worker.terminate) without ever stalling request handling.
//
// Plain ESM JavaScript on purpose: worker threads do not inherit the tsx/vitest TypeScript
// transform, so a .ts worker would only load under `node --import tsx`. This file needs nothing
// but Node and re2js, so it loads the same way in production, `tsx`, and vitest.
//
// Protocol (see safe-regex.ts): on start it posts { ready: true }; then for each
// { id, pattern, content } it posts { id, outcome: "match" | "nomatch" | "invalid" }.
import { parentPort } from "node:worker_threads";
import { RE2JS } from "re2js";

if (!parentPort) throw new Error("match-worker.mjs must run as a worker thread");
const port = parentPort;

/**
 * Compiled patterns, most recently used last; missions reuse one pattern for every submission.
 * Small on purpose: each compiled RE2 keeps its DFA state cache (up to 8 MB in re2js).
 */
const cache = new Map();
const CACHE_MAX = 16;

/** @param {string} pattern @returns {import("re2js").RE2JS | null} null when RE2 cannot compile it */
function compile(pattern) {
  const hit = cache.get(pattern);
  if (hit !== undefined) {
    cache.delete(pattern);
    cache.set(pattern, hit);
    return hit;
  }
  let re = null;
  try {
    // Default flags: RE2 syntax, case-sensitive unless the pattern says (?i), ^/$ anchor the whole
    // input, no lookaround (LOOKBEHINDS deliberately not enabled), no backreferences.
    re = RE2JS.compile(pattern);
  } catch {
    re = null;
  }
  cache.set(pattern, re);
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value);
  return re;
}

port.on("message", (/** @type {{ id: number; pattern: string; content: string }} */ msg) => {
  const re = compile(msg.pattern);
  if (re === null) {
    port.postMessage({ id: msg.id, outcome: "invalid" });
    return;
  }
  // test() = unanchored search without capture groups: re2js routes it to its DFA (linear time,
  // no backtracking) and only falls back to the NFA/bit-state engines when the DFA gives up.
  port.postMessage({ id: msg.id, outcome: re.test(msg.content) ? "match" : "nomatch" });
});

port.postMessage({ ready: true });
