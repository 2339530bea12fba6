import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SETTINGS } from "../../src/env.settings";
import { ERROR_CODES } from "../../src/lib/errors";
import { profileRows, probeKey, PROFILE } from "./profile-rows";
import { PROFILE_PROBES, PROFILE_STATEMENTS, SPECS, type Probe } from "./profile-statements";

// The statement profile as a test: every row of specs/AIP-1/profile-statements.md has a status from
// the legend, names tests that exist (file › exact test name), the rows per spec are the
// statements enumerated in profile-statements.ts, a conforming row names its test, and the probes
// that need no running server (routes and fields of the OpenAPI document, error codes, settings)
// hold. test/specs/profile.int.test.ts runs the others against the real server.

const ROOT = new URL("../../", import.meta.url);
const STATUSES = ["conforms", "partial", "deviates", "n/a", "no"] as const;

const profile = profileRows(readFileSync(new URL(PROFILE, ROOT), "utf8"));
const sources = new Map<string, string>();
const source = (file: string) => {
  if (!sources.has(file)) sources.set(file, readFileSync(new URL(file, ROOT), "utf8"));
  return sources.get(file)!;
};
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A file declares the test: it("name" / it('name' / it(`name` / test(…), the name whole. */
const declares = (file: string, name: string) =>
  new RegExp(`\\b(?:it|test)\\(\\s*(["'\`])${escape(name)}\\1`).test(source(file));
const statusOf = (status: string) => STATUSES.find((s) => status === s || new RegExp(`^${escape(s)}[ :;—]`).test(status));

describe("the AIP-1…4 statement profile", () => {
  it("every row's status is one of the legend's", () => {
    const bad = profile.filter((r) => !statusOf(r.status));
    expect(bad.map((r) => `${PROFILE}:${r.line} ${r.status.slice(0, 40)}`)).toEqual([]);
  });

  it("every test a row names exists: the file, and a test of that exact name in it", () => {
    const missing: string[] = [];
    for (const r of profile) {
      if (r.tests === "—") continue;
      for (const ref of r.tests.split(" ‖ ")) {
        const [file, name] = ref.split(" › ");
        if (!file || !name) missing.push(`${PROFILE}:${r.line}: "${ref}" is not "file › test name"`);
        else if (!existsSync(new URL(file, ROOT))) missing.push(`${PROFILE}:${r.line}: no file ${file}`);
        else if (!declares(file, name)) missing.push(`${PROFILE}:${r.line}: no test "${name}" in ${file}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("the rows per spec are the statements enumerated in profile-statements.ts", () => {
    for (const spec of SPECS)
      expect(profile.filter((r) => r.spec === spec).map((r) => r.section), spec).toEqual(PROFILE_STATEMENTS[spec]);
  });

  it("a conforms or partial row names the test that shows it", () => {
    const untested = profile.filter((r) => ["conforms", "partial"].includes(statusOf(r.status)!) && r.tests === "—");
    expect(untested.map((r) => `${PROFILE}:${r.line} ${r.spec} ${r.section}: ${r.statement.slice(0, 60)}`)).toEqual([]);
  });

  it("every probe keys a row; one that only asks for presence backs a conforms or partial row", () => {
    const byKey = new Map(profile.map((r) => [probeKey(r), r]));
    const bad = Object.entries(PROFILE_PROBES).filter(([k, probes]) => {
      const row = byKey.get(k);
      if (!row) return true;
      const claims = ["conforms", "partial"].includes(statusOf(row.status)!);
      return !claims && probes.some((p) => !("equals" in p));
    });
    expect(bad.map(([k]) => k)).toEqual([]);
  });
});

// The OpenAPI document as generated from the routes (test/openapi/openapi.test.ts keeps it equal).
const openapi = JSON.parse(source("openapi/openapi.json")) as {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>;
  components: { schemas: Record<string, Schema> };
};
interface Schema {
  $ref?: string;
  properties?: Record<string, unknown>;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}
const operation = (route: string) => {
  const [method, path] = route.split(" ");
  return openapi.paths[path!]?.[method!.toLowerCase()];
};
const resolve = (s: Schema): Schema => (s.$ref ? resolve(openapi.components.schemas[s.$ref.split("/").pop()!]!) : s);
/** Every property name a body schema declares, through $ref and allOf / anyOf / oneOf. */
const properties = (s: Schema | undefined): string[] => {
  if (!s) return [];
  const r = resolve(s);
  return [...Object.keys(r.properties ?? {}), ...[...(r.allOf ?? []), ...(r.anyOf ?? []), ...(r.oneOf ?? [])].flatMap(properties)];
};
const bodyFields = (route: string) => {
  const responses = operation(route)?.responses ?? {};
  return ["200", "201"].flatMap((s) => properties(responses[s]?.content?.["application/json"]?.schema));
};

/** Why a probe that needs no running server fails, or null when it holds (or is not such a probe). */
function staticProbe(p: Probe): string | null {
  if ("route" in p) return operation(p.route) ? null : `no operation ${p.route} in openapi/openapi.json`;
  if ("field" in p) return bodyFields(p.of).includes(p.field) ? null : `no field ${p.field} in the body of ${p.of}`;
  if ("code" in p) return (ERROR_CODES as string[]).includes(p.code) ? null : `no error code ${p.code}`;
  if ("setting" in p) return p.setting in SETTINGS ? null : `no setting ${p.setting}`;
  return null;
}

describe("the profile's probes that need no server", () => {
  it("every route, body field, error code and setting a row's probe names exists", () => {
    const failed = Object.entries(PROFILE_PROBES).flatMap(([key, probes]) =>
      probes.map(staticProbe).flatMap((why) => (why ? [`${key}: ${why}`] : [])),
    );
    expect(failed).toEqual([]);
  });

  it("a probe that names what is not there fails", () => {
    expect(staticProbe({ route: "GET /missions/{id}/nothing" })).toMatch(/no operation/);
    expect(staticProbe({ field: "no_such_field", of: "GET /missions/{id}" })).toMatch(/no field/);
    expect(staticProbe({ code: "NO_SUCH_CODE" })).toMatch(/no error code/);
    expect(staticProbe({ setting: "OABP_NO_SUCH_SETTING" })).toMatch(/no setting/);
    expect(staticProbe({ field: "aigen_balance", of: "GET /agents/{id}" })).toBeNull();
  });
});
