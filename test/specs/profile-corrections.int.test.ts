import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTINGS } from "../../src/env.settings";
import { makeTestApp, type TestApp } from "../helpers/app";

// The profile rows and protocol pages that lagged the server (AIP-4 §4 and §7, the alternate
// oracle, `verification_types`, the OADP comment on /skill.md), read from the files and held to
// what the server answers: each claim below is read from the text, then probed.

const root = path.resolve(import.meta.dirname, "../..");
const read = (p: string) => readFileSync(path.join(root, p), "utf8");
const statements = read("specs/AIP-1/profile-statements.md");
const profile = read("specs/AIP-1/profile.md");
const aip34 = read("docs/aip-3-4.md");
const aip12 = read("docs/aip-1-2.md");

/** The AIP-4 table's row for a section: its status cell. */
function aip4Status(section: string): string {
  const table = statements.slice(statements.indexOf("## AIP-4"));
  const row = table.split("\n").find((l) => l.startsWith(`| ${section} |`));
  expect(row, `AIP-4 row ${section}`).toBeDefined();
  return row!.split(" | ")[3]!;
}

let t: TestApp;
let withRpc: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
  // A node is only named, never called: the manifest reads the setting.
  withRpc = await makeTestApp({ OABP_RPC_URL: "http://127.0.0.1:9" });
});
afterAll(async () => {
  await t?.close();
  await withRpc?.close();
});

describe("profile rows and protocol pages match the server", () => {
  it("AIP-4 §7: the rows and docs/aip-3-4.md say cross_server_disputes as the manifest does", async () => {
    const manifest = (await t.call("GET", "/.well-known/oabp.json")).body;
    expect(manifest.cross_server_disputes).toBe(true);
    expect(aip34).toContain('"cross_server_disputes": true');
    expect(aip34).not.toContain("cross_server_disputes: false");
    expect(aip34).not.toMatch(/"cross_server_disputes": false/);
    expect(aip4Status("§7.3")).toMatch(/^conforms/);
    expect(aip4Status("§7.4")).toMatch(/^partial — .*dispute_upheld/);
    expect(statements).not.toContain("n/a (no cross-server disputes)");
  });

  it("AIP-4 §4: no page says there is no alternate oracle; the setting the rows name exists", () => {
    for (const text of [aip34, statements, profile]) expect(text).not.toMatch(/no alternate[- ]oracle/i);
    expect(statements).toContain("OABP_ALTERNATE_ORACLES");
    expect(aip34).toContain("OABP_ALTERNATE_ORACLES");
    expect(Object.keys(SETTINGS)).toContain("OABP_ALTERNATE_ORACLES");
  });

  it("AIP-4 §4: the bad_spec corrective action is described as built (never a refund for work read)", () => {
    const row = statements.split("\n").find((l) => l.startsWith("| §4 | corrective action within 24 h |"))!;
    expect(row).not.toContain("bad_spec: void + refund while the mission is still deciding");
    expect(row).toMatch(/bad_spec: .*no submission read is voided and refunded.*never a refund for work read/);
  });

  it("`oracle` is in verification_types only with an RPC node, as docs/aip-1-2.md and the profile say", async () => {
    expect(aip12).toMatch(/no `OABP_RPC_URL`.*`verification_types` leaves `oracle` out/);
    expect(profile).toMatch(/`OABP_RPC_URL` is unset, and then left out of the manifest's `verification_types`/);
    const without = (await t.call("GET", "/.well-known/oabp.json")).body.verification_types;
    expect(without).not.toContain("oracle");
    expect(without).toEqual(expect.arrayContaining(["creator_judges", "first_valid_match", "peer_vote"]));
    const withNode = (await withRpc.call("GET", "/.well-known/oabp.json")).body.verification_types;
    expect(withNode).toContain("oracle");
  });

  it("/skill.md and /llms.txt end with the OADP comment the profile names", async () => {
    expect(profile).toContain("`/skill.md` (each ending in the OADP comment");
    const comment = "<!-- OADP:1.0 hub=http://oabp.test reg=http://oabp.test/auth/siwe -->\n";
    for (const p of ["/skill.md", "/llms.txt"]) expect((await t.call("GET", p)).text.endsWith(comment), p).toBe(true);
  });
});
