import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestApp, type TestApp } from "../helpers/app";
import { credit, missionBody, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";

// AIP-2 (Mission Type Registry) end to end over HTTP: types on every mission, GET /missions/types,
// validated type_params, ?mission_type= filtering, the §4 continuation links (followed, not just
// read), the §4.1 ELO gate shown and enforced, and bad input answered with stable errors.

let t: TestApp;
type Agent = Awaited<ReturnType<typeof signIn>>;
let creator: Agent;
beforeAll(async () => {
  t = await makeTestApp();
  creator = await signIn(t);
  await credit(t, creator.address, 100_000_000_000n);
});
afterAll(async () => t?.close());

const CODE_REVIEW = {
  target_url: "https://github.com/example/repo/pull/1",
  language: "typescript",
  review_scope: ["bugs", "security"],
  output_format: "markdown",
};
const TOKEN_SCAN = {
  chain_id: 8453,
  token_address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  checks: ["honeypot", "ownership"],
};

async function create(over: Record<string, unknown>) {
  return t.call("POST", "/missions", { token: creator.token, body: missionBody(t, over) });
}
async function created(over: Record<string, unknown>) {
  const r = await create(over);
  expect(r.status, r.text).toBe(201);
  return r.body;
}
const path = (url: string) => new URL(url).pathname;

describe("AIP-2 §2 GET /missions/types", () => {
  it("lists every registered type, the custom types and the registry version, at / and /api", async () => {
    for (const p of ["/missions/types", "/api/missions/types"]) {
      const r = await t.call("GET", p);
      expect(r.status, r.text).toBe(200);
      expect(r.body.supported_types).toEqual([
        "code_review",
        "token_scan",
        "doc_write",
        "test_create",
        "data_label",
        "translation",
        "research",
        "freeform",
        "oabp:bug_bounty",
      ]);
      expect(r.body.registry_version).toMatch(/^aip-2-v/);
      expect(r.body.custom_types.map((c: { type_id: string }) => c.type_id)).toEqual(["oabp:bug_bounty"]);
      const scan = r.body.types.find((x: { type_id: string }) => x.type_id === "token_scan");
      expect(scan.verification_compatibility).toEqual({
        creator_judges: "OPTIONAL",
        first_valid_match: "NOT_RECOMMENDED",
        oracle: "RECOMMENDED",
        peer_vote: "OPTIONAL",
      });
      expect(scan.type_params_schema.required).toEqual(["chain_id", "token_address", "checks"]);
    }
  });

  it("§5 publishes a custom type at /missions/types/custom/{type_id}; an unknown one is a JSON 404", async () => {
    const r = await t.call("GET", "/missions/types/custom/oabp:bug_bounty");
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      type_id: "oabp:bug_bounty",
      version: "1",
      example_type_params: { severity_min: "medium" },
    });
    expect(r.body.type_params_schema.$schema).toContain("2020-12");
    expect(r.body.output_schema.properties).toHaveProperty("steps_to_reproduce");
    expectError(await t.call("GET", "/missions/types/custom/acme:thing"), 404, "NOT_FOUND");
  });
});

describe("AIP-2 §1 mission_type and type_params on every mission", () => {
  it("an untyped mission is freeform with type_params {} and the §4 links and §4.1 gates", async () => {
    const m = await created({});
    expect(m).toMatchObject({
      mission_type: "freeform",
      type_params: {},
      server_checks: null,
      min_submitter_elo: 0,
      required_submitter_tier: 0,
      required_submitter_tier_name: "Newcomer",
    });
    expect(m.api_url).toBe(`${t.deps.config.publicUrl}/api/missions/${m.id}`);
    expect(m.submit_url).toBe(`${t.deps.config.publicUrl}/api/missions/${m.id}/submit`);
    expect(m.claim_url).toBe(`${t.deps.config.publicUrl}/api/missions/${m.id}/claims`);
    expect(m.submissions_url).toBe(`${t.deps.config.publicUrl}/api/missions/${m.id}/submissions`);
    expect(m.resolve_url).toBe(`${t.deps.config.publicUrl}/api/missions/${m.id}/award`);
    expect(typeof m.view_url).toBe("string");
  });

  it("a registered type keeps its validated params; token_scan checks the server cannot run are reported skipped (§3.2)", async () => {
    const cr = await created({ mission_type: "code_review", type_params: CODE_REVIEW });
    expect(cr).toMatchObject({ mission_type: "code_review", type_params: CODE_REVIEW, server_checks: null });
    const ts = await created({
      mission_type: "token_scan",
      type_params: TOKEN_SCAN,
      verification: { type: "first_valid_match", params: { expected: "0x833589" } },
    });
    expect(ts.type_params.token_address).toBe(TOKEN_SCAN.token_address.toLowerCase());
    expect(ts.server_checks).toEqual({
      honeypot: { result: "skipped", detail: expect.any(String) },
      ownership: { result: "skipped", detail: expect.any(String) },
    });
    // §3.9: NOT_RECOMMENDED method and the binding clause both warn the creator.
    expect(ts.warnings.some((w: string) => w.startsWith("verification_not_recommended"))).toBe(true);
    expect(ts.warnings.some((w: string) => w.startsWith("first_valid_match_unbound"))).toBe(true);
    const again = await t.call("GET", `/missions/${ts.id}`);
    expect(again.body).toMatchObject({ mission_type: "token_scan", server_checks: ts.server_checks });
    const custom = await created({
      mission_type: "oabp:bug_bounty",
      type_params: { target_url: "https://example.org/app", severity_min: "high" },
    });
    expect(custom.type_params).toEqual({
      target_url: "https://example.org/app",
      severity_min: "high",
      disclosure: "private",
    });
  });

  it.each([
    ["malformed identifier", { mission_type: "Code Review" }, 400, "INVALID_PARAMETER", "mission_type"],
    [
      "another server's custom type",
      { mission_type: "acme:nft_scan" },
      422,
      "UNPROCESSABLE",
      "unsupported_mission_type",
    ],
    ["unknown registered-looking type", { mission_type: "poetry" }, 422, "UNPROCESSABLE", "unsupported_mission_type"],
    [
      "code_review without language",
      { mission_type: "code_review", type_params: { ...CODE_REVIEW, language: undefined } },
      422,
      "UNPROCESSABLE",
      "invalid_type_params",
    ],
    [
      "code_review with an unknown scope",
      { mission_type: "code_review", type_params: { ...CODE_REVIEW, review_scope: ["vibes"] } },
      422,
      "UNPROCESSABLE",
      "invalid_type_params",
    ],
    [
      "code_review with a repeated scope",
      { mission_type: "code_review", type_params: { ...CODE_REVIEW, review_scope: ["gas", "gas"] } },
      422,
      "UNPROCESSABLE",
      "invalid_type_params",
    ],
    [
      "code_review with an extra key",
      { mission_type: "code_review", type_params: { ...CODE_REVIEW, colour: "blue" } },
      422,
      "UNPROCESSABLE",
      "invalid_type_params",
    ],
    [
      "token_scan with a short address",
      { mission_type: "token_scan", type_params: { ...TOKEN_SCAN, token_address: "0x1234" } },
      422,
      "UNPROCESSABLE",
      "invalid_type_params",
    ],
    [
      "token_scan with no checks",
      { mission_type: "token_scan", type_params: { ...TOKEN_SCAN, checks: [] } },
      422,
      "UNPROCESSABLE",
      "invalid_type_params",
    ],
    [
      "research question too long",
      {
        mission_type: "research",
        type_params: {
          question: "x".repeat(501),
          depth: "quick",
          citation_format: "none",
          output_sections: ["summary"],
        },
      },
      422,
      "UNPROCESSABLE",
      "invalid_type_params",
    ],
    [
      "freeform with params",
      { mission_type: "freeform", type_params: { anything: 1 } },
      422,
      "UNPROCESSABLE",
      "invalid_type_params",
    ],
    [
      "type_params not an object",
      { mission_type: "research", type_params: "question?" },
      400,
      "INVALID_PARAMETER",
      "type_params",
    ],
    [
      "doc_write judged by an oracle (§3.9 NOT_APPLICABLE)",
      {
        mission_type: "doc_write",
        type_params: { target_url: "https://example.org", doc_kind: "readme", audience: "devs" },
        verification: {
          type: "oracle",
          params: { oracle_contract: "0x" + "11".repeat(20), oracle_method: "winner(bytes32)" },
        },
      },
      422,
      "UNPROCESSABLE",
      "verification_not_applicable",
    ],
    ["negative min_submitter_elo", { min_submitter_elo: -1 }, 400, "INVALID_PARAMETER", "min_submitter_elo"],
    ["fractional min_submitter_elo", { min_submitter_elo: 1400.5 }, 400, "INVALID_PARAMETER", "min_submitter_elo"],
  ])("%s → %i %s", async (_name, over, status, code, hint) => {
    const r = await create(over);
    expectError(r, status, code);
    expect(JSON.stringify(r.body.details ?? {}) + r.body.message).toContain(hint);
  });
});

describe("AIP-2 App. B schema link", () => {
  it("AIP-2 App. B: every mission carries its type_params schema URL, and it serves the JSON Schema", async () => {
    const cr = await created({ mission_type: "code_review", type_params: CODE_REVIEW });
    expect(path(cr.type_params_schema_url)).toBe("/missions/types/code_review/schema");
    const schema = await t.call("GET", path(cr.type_params_schema_url));
    expect(schema.status, schema.text).toBe(200);
    const registry = (await t.call("GET", "/missions/types")).body;
    expect(schema.body).toEqual(
      registry.types.find((x: { type_id: string }) => x.type_id === "code_review").type_params_schema,
    );
    const free = await created({});
    expect(path(free.type_params_schema_url)).toBe("/missions/types/freeform/schema");
    expect((await t.call("GET", path(free.type_params_schema_url))).status).toBe(200);
    const custom = await t.call("GET", `/missions/types/${encodeURIComponent("oabp:bug_bounty")}/schema`);
    expect(custom.status).toBe(200);
    expect(custom.body).toEqual(registry.custom_types[0].type_params_schema);
    const unknown = await t.call("GET", "/missions/types/no_such_type/schema");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBeDefined();
  });
});

describe("AIP-2 §4 ?mission_type= filtering and links on list items", () => {
  it("filters by one type, by several (OR), by freeform; a well-formed unknown type finds nothing; a malformed one is 400", async () => {
    const a = await created({
      mission_type: "research",
      type_params: { question: "Why?", depth: "quick", citation_format: "none", output_sections: ["summary"] },
    });
    const b = await created({
      mission_type: "translation",
      type_params: { source_url: "https://example.org/a.md", source_lang: "en", target_lang: "zh-Hans" },
    });
    const c = await created({});
    const ids = async (q: string) => {
      const r = await t.call("GET", `/api/missions?limit=100&${q}`);
      expect(r.status, r.text).toBe(200);
      return r.body.missions.map((m: { id: string; mission_type: string }) => m.id);
    };
    const one = await ids("mission_type=research");
    expect(one).toContain(a.id);
    expect(one).not.toContain(b.id);
    expect(one).not.toContain(c.id);
    const both = await ids("mission_type=research,translation");
    expect(both).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(both).not.toContain(c.id);
    const free = await ids("mission_type=freeform");
    expect(free).toContain(c.id);
    expect(free).not.toContain(a.id);
    expect(await ids("mission_type=poetry")).toEqual([]);
    expect(await ids("")).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    for (const bad of ["Research", "research,,BAD", "a", `${"x".repeat(70)}`])
      expectError(await t.call("GET", `/missions?mission_type=${bad}`), 400, "INVALID_PARAMETER");
  });

  it("every list item carries the links, and following them works (detail, submit, claim, submissions, resolve)", async () => {
    const m = await created({ tags: ["links"] });
    const r = await t.call("GET", "/api/missions?tag=links");
    const item = r.body.missions.find((x: { id: string }) => x.id === m.id);
    for (const k of ["view_url", "api_url", "submit_url", "claim_url", "submissions_url", "resolve_url"])
      expect(typeof item[k], k).toBe("string");
    expect((await t.call("GET", path(item.api_url))).body.id).toBe(m.id);
    const solver = await signIn(t);
    const claim = await t.call("POST", path(item.claim_url), { token: solver.token, body: {} });
    expect(claim.status, claim.text).toBe(201);
    const sub = await t.call("POST", path(item.submit_url), { token: solver.token, body: { content: "the answer" } });
    expect(sub.status, sub.text).toBe(201);
    const subs = await t.call("GET", path(item.submissions_url), { token: creator.token });
    expect(subs.body.submissions.map((s: { id: string }) => s.id)).toEqual([sub.body.id]);
    // resolve_url is a discovery hint, not a grant: the endpoint enforces who may call it.
    expectError(
      await t.call("POST", path(item.resolve_url), {
        token: solver.token,
        body: { winners: [{ submission_id: sub.body.id }] },
      }),
      403,
      "FORBIDDEN",
    );
  });

  it("resolve_url is null where the server resolves by itself", async () => {
    const m = await created({ verification: { type: "first_valid_match", params: { expected: "42" } } });
    expect(m.resolve_url).toBeNull();
  });
});

describe("AIP-2 §4.1 min_submitter_elo is shown and enforced", () => {
  it("a submitter below the gate is refused with the gate in the error; at the gate, accepted", async () => {
    const high = await created({ min_submitter_elo: 1401 });
    expect(high.min_submitter_elo).toBe(1401);
    expect(
      (await t.call("GET", `/missions?limit=100`)).body.missions.find((x: { id: string }) => x.id === high.id)
        .min_submitter_elo,
    ).toBe(1401);
    const solver = await signIn(t); // a new agent rates 1400
    const r = await t.call("POST", `/missions/${high.id}/submissions`, { token: solver.token, body: { content: "x" } });
    expectError(r, 403, "FORBIDDEN");
    expect(r.body.details).toMatchObject({ reason: "below_min_submitter_elo", min_submitter_elo: 1401, rating: 1400 });
    const at = await created({ min_submitter_elo: 1400 });
    const ok = await t.call("POST", `/missions/${at.id}/submissions`, { token: solver.token, body: { content: "x" } });
    expect(ok.status, ok.text).toBe(201);
  });

  it("the gate holds for commit-reveal commitments too", async () => {
    const m = await created({
      min_submitter_elo: 2000,
      verification: { type: "first_valid_match", params: { expected: "42", commit_reveal: true } },
    });
    const solver = await signIn(t);
    const r = await t.call("POST", `/missions/${m.id}/commitments`, {
      token: solver.token,
      body: { commitment: "sha256:" + "ab".repeat(32) },
    });
    expectError(r, 403, "FORBIDDEN");
  });
});

describe("AIP-2 declared", () => {
  it("aip_supported has 2 and the agent card declares aip-2-basic (§7)", async () => {
    const m = (await t.call("GET", "/.well-known/oabp.json")).body;
    expect(m.aip_supported).toContain(2);
    expect(m.endpoints.mission_types).toBe("/missions/types");
    const card = (await t.call("GET", "/.well-known/agent.json")).body;
    expect(card.protocol_versions).toContain("aip-2-basic");
  });
});
