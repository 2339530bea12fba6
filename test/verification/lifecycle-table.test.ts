import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MISSION_PHASES, MISSION_STATES, MISSION_STATUSES } from "../../src/db/vocabulary";
import { STEPS, TERMINAL } from "../../src/features/verification/lifecycle";

// Unit tier (no database): the lifecycle table against the vocabulary.

const SRC = join(__dirname, "../../src");
const sources = (dir: string): { path: string; text: string }[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith(".ts")
        ? [{ path: join(dir, e.name), text: readFileSync(join(dir, e.name), "utf8") }]
        : [],
  );
const files = sources(SRC);

const states = MISSION_STATUSES.flatMap((s) => MISSION_STATES[s].map((p) => `${s}/${p}`));
const stepped = Object.keys(STEPS);
const terminal: readonly string[] = TERMINAL;

/** `status: <values>` followed in the same object literal by `phase: <values>`: the pairs a write can produce. */
function writtenPairs(): { where: string; state: string }[] {
  const value = String.raw`(?:[\w.]+\s*\?\s*)?"([a-z_]+)"(?:\s*:\s*"([a-z_]+)")?`;
  const re = new RegExp(String.raw`\bstatus:\s*${value},[^{}]*?\bphase:\s*${value}`, "g");
  return files.flatMap(({ path, text }) =>
    [...text.matchAll(re)].flatMap((m) => {
      const statuses = [m[1]!, m[2] ?? m[1]!];
      const phases = [m[3]!, m[4] ?? m[3]!];
      // A ternary pairs with a ternary on the same condition; a literal pairs with each.
      return (m[2] || m[4] ? [0, 1] : [0]).map((i) => ({
        where: `${path.slice(SRC.length + 1)}: ${m[0].split("\n")[0]}`,
        state: `${statuses[i]}/${phases[i]}`,
      }));
    }),
  );
}

describe("mission lifecycle table", () => {
  it("every phase belongs to exactly one status", () => {
    const owners = MISSION_PHASES.map((p) =>
      MISSION_STATUSES.filter((s) => (MISSION_STATES[s] as readonly string[]).includes(p)),
    );
    expect(
      owners
        .map((o, i) => `${MISSION_PHASES[i]}: ${o.join(",")}`)
        .filter((l) => l.split(",").length !== 1 || l.endsWith(": ")),
    ).toEqual([]);
  });

  it("every state of the vocabulary has a step or is terminal, never both", () => {
    expect(states.filter((s) => !stepped.includes(s) && !terminal.includes(s))).toEqual([]);
    expect(states.filter((s) => stepped.includes(s) && terminal.includes(s))).toEqual([]);
    expect([...stepped, ...terminal].filter((s) => !states.includes(s))).toEqual([]);
  });

  it("every (status, phase) the code writes is a state of the vocabulary", () => {
    const pairs = writtenPairs();
    // The scan must see the writes it is meant to hold (creation, deposits, sweeper, settlement, appeal, oracle, convert).
    expect(pairs.length).toBeGreaterThanOrEqual(12);
    expect(new Set(pairs.map((p) => p.state.split("/")[0]))).toEqual(new Set(MISSION_STATUSES));
    expect(pairs.filter((p) => !states.includes(p.state))).toEqual([]);
  });

  it("verification params are read through verificationOf, never recast", () => {
    const recast =
      /verificationParams\s+as\b|\bverificationParams\.\w+|\bas\s+(?:unknown\s+as\s+)?(?:FvmParams|AppealParams|CreatorJudgesParams|FirstValidMatchParams|PeerVoteParams|OracleParams|VerificationParams)\b/;
    const hits = files.flatMap(({ path, text }) =>
      text
        .split("\n")
        .map((line, i) => ({ at: `${path.slice(SRC.length + 1)}:${i + 1}`, line }))
        .filter((l) => recast.test(l.line)),
    );
    expect(hits).toEqual([]);
    // The grep can fail: the pattern still catches the old form.
    expect(recast.test("const p = m.verificationParams as { voting_deadline: string };")).toBe(true);
  });

  it("docs/lifecycle.md quotes the states as the vocabulary module has them", () => {
    const vocabulary = readFileSync(join(SRC, "db/vocabulary.ts"), "utf8");
    const block = vocabulary.slice(
      vocabulary.indexOf("export const MISSION_STATES"),
      vocabulary.indexOf(";", vocabulary.indexOf("} as const satisfies")) + 1,
    );
    expect(block.length).toBeGreaterThan(100);
    expect(readFileSync(join(SRC, "../docs/lifecycle.md"), "utf8")).toContain(block);
  });
});
