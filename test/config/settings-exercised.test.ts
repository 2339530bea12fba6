import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SETTINGS } from "../../src/env.settings";

// A setting nothing sets is breadth that buys nothing (docs/configuration.md): every setting in
// src/env.settings.ts is set by some test, bench, script or the compose file — where a test sets
// it, it observes the effect (test/config/settings-effect.int.test.ts for those no feature suite
// needs) — or stands below with the reason it is not. The list may only shrink: an entry that is
// set somewhere now fails as stale.

const ROOT = path.resolve(__dirname, "..", "..");
const SETTERS = ["test", "bench", "scripts", "docker-compose.yml", "Dockerfile"];
const THIS_FILE = path.relative(ROOT, __filename);

const SECRET = "a secret: tests generate the key in process (test/helpers/app.ts); an operator sets it in production";

const ALLOWED: Record<string, string> = {
  OABP_ATTESTATION_KEY: SECRET,
};

/** The text of every tracked file a setting could be set in (this file aside). */
function setterText(): string {
  const files = execFileSync("git", ["ls-files", "-z", "--", ...SETTERS], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter((f) => f && f !== THIS_FILE && /\.(ts|mjs|js|ya?ml|sh|json)$|Dockerfile$/.test(f));
  return files.map((f) => readFileSync(path.join(ROOT, f), "utf8")).join("\n");
}

describe("every setting is set somewhere", () => {
  const text = setterText();
  const isSet = (name: string) => new RegExp(`\\b${name}\\b`).test(text);

  it("is set by a test, bench, script or compose file, or allowed with a reason", () => {
    const unset = Object.keys(SETTINGS).filter((n) => !isSet(n) && !ALLOWED[n]);
    expect(unset, "set it in a test that observes its effect, make it a constant, or allow it with a reason").toEqual(
      [],
    );
  });

  it("allows nothing stale: each allowed setting exists and is set nowhere", () => {
    const stale = Object.keys(ALLOWED).filter((n) => !(n in SETTINGS) || isSet(n));
    expect(stale).toEqual([]);
  });
});
