// Inline-content matcher for first_valid_match (AIP-1 §4.2 match_mode; Appendix B, ReDoS).
//
// Engine choice, from measurements on this repo's machine (Node 20, 1 MiB inputs):
// - re2js (pure-JS RE2) `test()` — captureless search, routed to its DFA — runs the classic
//   catastrophic-backtracking patterns in 1–12 ms: (a+)+$, (a|aa)+$, (.*a){20}, ^(\w+\s?)*$
//   against "aaa…ab". (`matcher().find()`, which tracks captures, takes 80–1400 ms on the same
//   input, so we never use it.) RE2 has no backtracking, so there is no exponential case.
// - But "linear" is not "fast": when the DFA exhausts its state budget re2js falls back to the
//   NFA, and a legal 24-character pattern such as (?:.{0,50}a){15}[^\w\s] takes ~14 s on 1 MiB of
//   random a/b. In-process that would freeze every request for 14 s.
// So regex matching runs in one long-lived worker thread (match-worker.mjs) with a wall-clock
// budget: on timeout the worker is terminated (killing the runaway match) and replaced lazily for
// the next call. The main thread only measures the input and posts it (a 1 MiB structured clone
// costs a few ms), so the event loop stays responsive whatever the pattern does. Calls are queued
// and run one at a time; the timeout clock starts when a call is handed to a ready worker, so time
// spent queued or spawning a fresh worker never counts against a pattern.
// The native `re2` package (Google RE2 via node-gyp) was also evaluated; it still needs the same
// timeout + isolation for NFA-fallback patterns, and it would add a C++ toolchain to the
// node:20-slim image, so re2js in a worker is the simpler way to meet both requirements.
//
// substring and exact are plain linear string operations (≤ ~20 ms on 1 MiB, incl. NFC) and run
// in-process.
import { Worker } from "node:worker_threads";

export type MatchMode = "substring" | "exact" | "regex";
export type MatchResult =
  | { ok: true; matched: boolean }
  | { ok: false; reason: "pattern_invalid" | "input_too_large" | "timeout" | "pattern_too_long" | "busy" };
export interface MatchOptions {
  /** Wall-clock budget for one regex evaluation in the worker (default 250 ms). */
  timeoutMs?: number;
  /** Largest content accepted, in UTF-8 bytes (default 1 MiB); larger → input_too_large. */
  maxInputBytes?: number;
  /**
   * Regex calls allowed to wait for the worker (default 32); past it the call answers `busy` at
   * once instead of queueing.
   */
  maxQueue?: number;
}

/** Mirrors MAX_REGEX_LENGTH in missions.verification.ts (mission creation refuses longer). */
export const MAX_PATTERN_LENGTH = 1024;
/** Mirrors MAX_EXPECTED_LENGTH in missions.verification.ts, for substring/exact literals. */
const MAX_LITERAL_LENGTH = 4096;
const DEFAULT_MAX_INPUT_BYTES = 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 250;
const DEFAULT_MAX_QUEUE = 32;

/**
 * Caseless comparison form for `substring`. Unicode-aware but deliberately simple:
 * - NFC first, so "é" typed precomposed and "e\u0301" decomposed compare equal (NFC, not NFKC:
 *   compatibility folding would make "²" equal "2" or "ﬁ" equal "fi", which changes meaning);
 * - `toLowerCase()` (full Unicode lowercase mapping, locale-independent);
 * - final sigma "ς" → "σ", because toLowerCase picks ς/σ from context and the expected string and
 *   the content may put the same Σ in different contexts.
 * Not full case folding: "ß" does not match "ss" (nor does "straße" match "STRASSE").
 */
function foldForSubstring(s: string): string {
  return s.normalize("NFC").toLowerCase().replace(/ς/g, "σ");
}

/** Removes one trailing "\n" or "\r\n" — a file that ends with a newline still matches exactly. */
function stripOneNewline(s: string): string {
  if (s.endsWith("\r\n")) return s.slice(0, -2);
  if (s.endsWith("\n")) return s.slice(0, -1);
  return s;
}

/**
 * Decides whether `content` satisfies `expected` under AIP-1 §4.2 `match_mode`:
 * - substring (the default): case-insensitive containment of foldForSubstring(expected) in
 *   foldForSubstring(content).
 * - exact: code-unit-for-code-unit equality after removing at most ONE trailing newline ("\n" or
 *   "\r\n") from each side. No case folding, no normalisation, no other trimming.
 * - regex: RE2 syntax and semantics (re2js), SEARCH: the pattern may match anywhere; ^ and $ anchor
 *   the whole input (no multi-line unless the pattern sets (?m)); `$` does not match before a
 *   trailing newline (RE2, unlike PCRE); case-sensitive unless the pattern sets (?i). Patterns RE2
 *   cannot compile (lookaround, backreferences, …) → pattern_invalid.
 * Bounds for every mode: content over maxInputBytes (UTF-8) → input_too_large; expected longer
 * than MAX_PATTERN_LENGTH (regex) or MAX_LITERAL_LENGTH (substring/exact) characters →
 * pattern_too_long. A regex evaluation over timeoutMs → timeout, and a full queue → busy: callers
 * retry later; neither is a match nor a "no match".
 */
export async function matchContent(
  mode: MatchMode,
  expected: string,
  content: string,
  opts: MatchOptions = {},
): Promise<MatchResult> {
  const maxInputBytes = opts.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const maxExpected = mode === "regex" ? MAX_PATTERN_LENGTH : MAX_LITERAL_LENGTH;
  if (expected.length > maxExpected) return { ok: false, reason: "pattern_too_long" };
  // UTF-8 never takes fewer bytes than UTF-16 code units, so the length check is a safe shortcut.
  if (content.length > maxInputBytes || Buffer.byteLength(content, "utf8") > maxInputBytes) {
    return { ok: false, reason: "input_too_large" };
  }
  switch (mode) {
    case "substring":
      return { ok: true, matched: foldForSubstring(content).includes(foldForSubstring(expected)) };
    case "exact":
      return { ok: true, matched: stripOneNewline(content) === stripOneNewline(expected) };
    case "regex":
      if (queue.length >= (opts.maxQueue ?? DEFAULT_MAX_QUEUE)) return { ok: false, reason: "busy" };
      return runRegex(expected, content, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    default:
      throw new TypeError(`unknown match_mode: ${String(mode satisfies never)}`);
  }
}

// ---- worker pool of one ----

type Outcome = "match" | "nomatch" | "invalid";
interface Job {
  id: number;
  pattern: string;
  content: string;
  timeoutMs: number;
  resolve: (r: MatchResult) => void;
  reject: (e: Error) => void;
}

const WORKER_URL = new URL("./match-worker.mjs", import.meta.url);
const queue: Job[] = [];
let worker: Worker | null = null;
let ready = false;
let current: { job: Job; timer: NodeJS.Timeout } | null = null;
let nextId = 1;

/** True when a regex call would answer `busy` now (the submission route answers 503 first). */
export function matcherBusy(maxQueue = DEFAULT_MAX_QUEUE): boolean {
  return queue.length >= maxQueue;
}

function runRegex(pattern: string, content: string, timeoutMs: number): Promise<MatchResult> {
  return new Promise<MatchResult>((resolve, reject) => {
    queue.push({ id: nextId++, pattern, content, timeoutMs, resolve, reject });
    pump();
  });
}

function spawn(): Worker {
  // Heap cap: a few 1 MiB inputs plus ≤ 16 cached DFAs fit easily; a worker that blows it dies
  // with ERR_WORKER_OUT_OF_MEMORY (the call rejects) instead of growing the process.
  const w = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: 256 } });
  w.unref(); // an idle matcher never keeps the process alive; a running job's timer does
  w.on("message", (msg: { ready?: true; id?: number; outcome?: Outcome }) => {
    if (w !== worker) return;
    if (msg.ready) {
      ready = true;
      pump();
      return;
    }
    if (!current || msg.id !== current.job.id) return;
    const { job, timer } = current;
    clearTimeout(timer);
    current = null;
    job.resolve(
      msg.outcome === "invalid"
        ? { ok: false, reason: "pattern_invalid" }
        : { ok: true, matched: msg.outcome === "match" },
    );
    pump();
  });
  const fail = (err: Error) => {
    if (w !== worker) return;
    const startedUp = ready;
    discardWorker();
    if (current) {
      clearTimeout(current.timer);
      current.job.reject(err);
      current = null;
    }
    // A worker that dies before it is ready (e.g. re2js cannot load) would die again: fail the
    // waiting calls rather than respawn in a loop.
    if (!startedUp) for (const job of queue.splice(0)) job.reject(err);
    pump();
  };
  w.on("error", fail);
  w.on("exit", (code) => fail(new Error(`regex match worker exited unexpectedly (code ${code})`)));
  return w;
}

function discardWorker(): void {
  const w = worker;
  worker = null;
  ready = false;
  if (w) void w.terminate().catch(() => undefined);
}

function pump(): void {
  if (current || queue.length === 0) return;
  if (!worker) worker = spawn();
  if (!ready) return; // the worker's { ready } message calls pump() again
  const job = queue.shift()!;
  const timer = setTimeout(() => {
    if (current?.job !== job) return;
    current = null;
    discardWorker(); // kills the runaway match; the next job gets a fresh worker
    job.resolve({ ok: false, reason: "timeout" });
    pump();
  }, job.timeoutMs);
  current = { job, timer };
  worker.postMessage({ id: job.id, pattern: job.pattern, content: job.content });
}

/** Terminates the matcher worker (graceful shutdown, tests). Queued calls fail with an Error. */
export async function closeMatcher(): Promise<void> {
  const pending = queue.splice(0);
  if (current) {
    clearTimeout(current.timer);
    pending.unshift(current.job);
    current = null;
  }
  const w = worker;
  worker = null;
  ready = false;
  for (const job of pending) job.reject(new Error("matcher closed"));
  if (w) await w.terminate();
}
