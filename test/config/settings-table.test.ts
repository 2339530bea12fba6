import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_ENV } from "../../packages/client/src/cli/context";
import { parseEnv } from "../../src/env";
import { EnvSchema, SETTINGS } from "../../src/env.settings";
import { CONFIG_DOC, settingsTable, withTable } from "../../scripts/config-docs";

// Settings are spelled once (src/env.settings.ts); the docs are generated from that table and
// must not drift from it, and no page may name a setting the server does not have.

const ROOT = path.resolve(__dirname, "..", "..");
const configDoc = readFileSync(CONFIG_DOC, "utf8");
const schemaNames = Object.keys(EnvSchema.shape).sort();
/** Variable names in the first column of a markdown table (`| \`NAME\` | …`). */
const tableNames = (doc: string) => [...doc.matchAll(/^\| `([A-Z][A-Z0-9_]+)`/gm)].map((m) => m[1]!);

/** A parsed default as docs/configuration.md writes it. */
function shown(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) return v.length === 0 ? "`[]`" : `\`${v.join(",")}\``;
  if (typeof v === "object" && v && "quota" in v && "windowSeconds" in v)
    return `\`${String(v.quota)}/${String(v.windowSeconds)}\``;
  if (typeof v === "object" && v && "tag" in v) return `\`${String(v.tag)}\``;
  return `\`${String(v)}\``;
}

describe("settings table (docs/configuration.md)", () => {
  it("is the table generated from src/env.settings.ts (run `npx tsx scripts/config-docs.ts`)", () => {
    expect(configDoc).toBe(withTable(configDoc));
    expect(configDoc).toContain(settingsTable());
  });

  it("lists exactly the settings the schema has, each once", () => {
    const listed = tableNames(configDoc);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(schemaNames);
  });

  it("shows every schema default as it is parsed", () => {
    const parsed = EnvSchema.parse({}) as Record<string, unknown>;
    for (const [name, s] of Object.entries(SETTINGS)) {
      const expected = shown(parsed[name]);
      if (expected !== undefined) expect(s.shown, name).toBe(expected);
      else expect(s.shown, `${name} has no schema default`).not.toMatch(/^`[^`<$]*`$/);
    }
  });

  it("fills every keyed Config property with the parsed value", () => {
    const parsed = EnvSchema.parse({}) as Record<string, unknown>;
    const config = parseEnv({}) as unknown as Record<string, Record<string, unknown>>;
    for (const [name, s] of Object.entries(SETTINGS)) {
      if (!("key" in s)) continue;
      const [group, prop] = s.key.split(".");
      const value = prop === undefined ? config[group!] : config[group!]![prop];
      expect(value, `${name} → ${s.key}`).toEqual(parsed[name]);
    }
  });

  it("the README's short table and every docs/ page name only real settings", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const readmeRows = tableNames(readme).filter((n) => /^(OABP|DATABASE)_|^(PORT|HOST|LOG_LEVEL)$/.test(n));
    expect(readmeRows.length).toBeGreaterThan(5);
    for (const n of readmeRows) expect(schemaNames, `README row ${n}`).toContain(n);
    // Its defaults are the table's.
    for (const [, n, dflt] of readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \| ([^|]+) \|/gm)) {
      expect(dflt!.trim(), `README default of ${n}`).toBe(SETTINGS[n as keyof typeof SETTINGS].shown);
    }
    // Names other programs read: the CLI (packages/client), `npm run escrow:deploy`, the test
    // helpers (OABP_CHROMIUM in test/helpers/browser.ts) and the outside conformance suite
    // (OABP_TEST_AGENT_ID, set by scripts/aigen-conformance.ts).
    const readers = [
      path.join(ROOT, "scripts", "deploy-escrow.ts"),
      path.join(ROOT, "scripts", "aigen-conformance.ts"),
      ...readdirSync(path.join(ROOT, "test", "helpers"))
        .filter((f) => f.endsWith(".ts"))
        .map((f) => path.join(ROOT, "test", "helpers", f)),
    ];
    const named = readers.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/OABP_[A-Z0-9_]+/g)].map((m) => m[0]));
    const others = new Set([...CLI_ENV, ...named]);
    const pages = [
      "README.md",
      ...["docs", "docs/decisions"].flatMap((dir) =>
        readdirSync(path.join(ROOT, dir))
          .filter((f) => f.endsWith(".md"))
          .map((f) => `${dir}/${f}`),
      ),
    ];
    for (const page of pages) {
      const text = readFileSync(path.join(ROOT, page), "utf8");
      // A trailing underscore is a family (`OABP_MCP_*`), not a name.
      for (const [n] of text.matchAll(/\bOABP_[A-Z0-9_]*[A-Z0-9]\b(?!_)/g)) {
        expect(schemaNames.includes(n) || others.has(n), `${page} names ${n}`).toBe(true);
      }
    }
  });
});
