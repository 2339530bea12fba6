import { describe, expect, it } from "vitest";
import { encodeAbiParameters, keccak256, parseAbiParameters } from "viem";
import { signReceipt } from "../../src/lib/receipt-sign";
import { newAccount, openMission, signIn } from "../helpers/agents";
import { PROFILE_PROBES, type Probe } from "./profile-statements";
import { useTestApp } from "../helpers/suite-app";
import { awardedTo } from "../helpers/mission-flow";

// The statement profile (specs/AIP-1/profile-statements.md) against the real server: the probes
// of its rows that need a running server (manifest and agent-card fields, answers), and the
// statements no other test shows, each quoting its section.

const REGISTRY = newAccount();
const t = useTestApp({ OABP_REGISTRIES: JSON.stringify([{ domain: "registry.example", signer: REGISTRY.address }]) });

const json = async (path: string) => {
  const r = await t.call("GET", path);
  expect(r.status, path).toBe(200);
  return r.body as Record<string, unknown>;
};
/** The value at a dotted path ("mcp.transport_paths.served"), or undefined. */
const at = (doc: unknown, path: string) =>
  path.split(".").reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), doc);

/** Why a manifest or card probe fails: the path is absent, or holds another value than `equals`. */
function field(key: string, where: string, doc: unknown, path: string, p: { equals?: unknown }): string[] {
  const value = at(doc, path);
  if (value === undefined) return [`${key}: no ${path} in ${where}`];
  if ("equals" in p && JSON.stringify(value) !== JSON.stringify(p.equals))
    return [`${key}: ${path} in ${where} is ${JSON.stringify(value)}, the row says ${JSON.stringify(p.equals)}`];
  return [];
}

describe("the profile's probes on the real server", () => {
  it("AIP-1…4: every probed manifest and agent-card field is there and every probed path answers as the row says", async () => {
    const manifest = await json("/.well-known/oabp.json");
    const card = await json("/.well-known/agent-card.json");
    const failed: string[] = [];
    const check = async (key: string, p: Probe) => {
      if ("manifest" in p) failed.push(...field(key, "the manifest", manifest, p.manifest, p));
      if ("card" in p) failed.push(...field(key, "the agent card", card, p.card, p));
      if ("get" in p) {
        const r = await t.app.request(p.get, { redirect: "manual" });
        if (r.status !== p.status) failed.push(`${key}: GET ${p.get} answered ${r.status}, not ${p.status}`);
      }
    };
    for (const [key, probes] of Object.entries(PROFILE_PROBES)) for (const p of probes) await check(key, p);
    expect(failed).toEqual([]);
    // The check fails on what is not there.
    expect(field("k", "the manifest", manifest, "mcp.no_such_field", {})).toEqual(["k: no mcp.no_such_field in the manifest"]);
    expect(field("k", "the manifest", manifest, "fee_bps", { equals: 51 })).toHaveLength(1);
    expect((await t.app.request("/no-such-path", { redirect: "manual" })).status).toBe(404);
  });
});

/** A registry attestation (AIP-1 §1.4 (3)): ECDSA over keccak256(abi.encode(api_key, evm_address, issued_at)). */
async function bindApiKey(address: string) {
  const f = {
    api_key: crypto.randomUUID(),
    evm_address: address,
    issued_at: t.clock.now().toISOString(),
    registry_domain: "registry.example",
  };
  const hash = keccak256(
    encodeAbiParameters(parseAbiParameters("string, address, string"), [f.api_key, address as `0x${string}`, f.issued_at]),
  );
  const r = await t.call("POST", "/attestations/registry", { body: { ...f, signature: await REGISTRY.sign({ hash }) } });
  expect(r.status, r.text).toBe(200);
  return f.api_key;
}

/** A creator_judges mission won by a registry-attested session; the winner's address and ids. */
async function wonThroughRegistry() {
  const { creator, mission } = await openMission(t);
  const bound = newAccount().address.toLowerCase();
  const apiKey = await bindApiKey(bound);
  const sub = await t.call("POST", `/missions/${mission.id}/submissions?api_key=${encodeURIComponent(apiKey)}`, {
    body: { content: "the registry user's answer" },
  });
  expect(sub.status, sub.text).toBe(201);
  await awardedTo(t, mission.id, creator, sub.body.id);
  return { bound, missionId: mission.id as string, submissionId: sub.body.id as string };
}

describe("AIP-1 statements no other test shows", () => {
  it("AIP-1 §1.4 (4)(5): a registry-attested session's win pays and credits the bound address", async () => {
    const { bound, missionId } = await wonThroughRegistry();
    const agent = (await t.call("GET", `/agents/${bound}`)).body;
    expect(agent.aigen_balance).toBe(99_500_000);
    expect(agent.missions_completed).toBe(1);
    expect(agent.rating).toBeGreaterThan(1400);
    const history = (await t.call("GET", `/agents/${bound}/history`)).body.history;
    expect(history).toEqual([expect.objectContaining({ mission_id: missionId, kind: "win" })]);
    // The registry's own signer got nothing.
    expect((await t.call("GET", `/agents/${REGISTRY.address}/balance`)).body.aigen_balance).toBe(0);
  });

  it("AIP-1 §1.4: the manifest publishes each configured registry's signing address", async () => {
    const manifest = await json("/.well-known/oabp.json");
    expect(manifest.registries).toEqual([
      expect.objectContaining({ domain: "registry.example", signer: expect.stringMatching(new RegExp(`^${REGISTRY.address}$`, "i")) }),
    ]);
  });

  it("AIP-1 §5: /agents/{id}/history pages the rating changes with a cursor", async () => {
    const a = await signIn(t);
    for (let i = 0; i < 3; i++) {
      const { creator, mission } = await openMission(t);
      const s = await t.call("POST", `/missions/${mission.id}/submissions`, { token: a.token, body: { content: `answer ${i}` } });
      await t.call("POST", `/missions/${mission.id}/award`, { token: creator.token, body: { winners: [{ submission_id: s.body.id }] } });
    }
    const first = await t.call("GET", `/agents/${a.address}/history?limit=2`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.history).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const rest = await t.call("GET", `/agents/${a.address}/history?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(rest.body.history).toHaveLength(1);
    expect(rest.body.next_cursor).toBeNull();
    const all = [...first.body.history, ...rest.body.history];
    expect(new Set(all.map((h: { mission_id: string }) => h.mission_id)).size).toBe(3);
    expect(all.every((h: { kind: string; delta: number }) => h.kind === "win" && h.delta > 0)).toBe(true);
  });

  it("AIP-1 §6.1: a receipt carrying a field this server does not know verifies when its issuer signed it", async () => {
    const { missionId, submissionId } = await wonThroughRegistry();
    const receipt = (await json(`/missions/${missionId}/receipts/${submissionId}`)) as Record<string, unknown>;
    const { digest: _d, signature: _s, ...unsigned } = receipt;
    const extended = signReceipt({ ...unsigned, cross_chain_proof: { kind: "future-aip", value: "0x01" } }, t.deps.receiptKeys);
    const r = await t.call("POST", "/receipts/verify", { body: { receipt: extended } });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ valid: true, reasons: [] });
    // The unknown field is signed like any other: changing it breaks the signature.
    const tampered = { ...extended, cross_chain_proof: { kind: "future-aip", value: "0x02" } };
    expect((await t.call("POST", "/receipts/verify", { body: { receipt: tampered } })).body.valid).toBe(false);
  });

  it("AIP-1 §8: /api/v1/openapi.json answers 301 to /openapi.json", async () => {
    const r = await t.app.request("/api/v1/openapi.json", { redirect: "manual" });
    expect(r.status).toBe(301);
    expect(new URL(r.headers.get("location")!, "http://oabp.test").pathname).toBe("/openapi.json");
  });

  it("AIP-1 §9: receipt_endpoint_template, filled in, serves the §6.1 receipt", async () => {
    const { missionId, submissionId } = await wonThroughRegistry();
    const template = (await json("/.well-known/oabp.json")).receipt_endpoint_template as string;
    expect(template).toContain("{mission_id}");
    expect(template).toContain("{submission_id}");
    const receipt = await json(template.replace("{mission_id}", missionId).replace("{submission_id}", submissionId));
    expect(receipt).toMatchObject({ type: "oabp.mission_receipt", mission_id: missionId, submission_id: submissionId });
  });

  it("AIP-1 §9: the ADP card restates the manifest's aip_supported, not a list of its own", async () => {
    const manifest = await json("/.well-known/oabp.json");
    const adp = await json("/.well-known/adp-agent-card.json");
    expect(manifest.aip_supported).toEqual([1, 2, 3, 4]);
    expect(at(adp, "extensions.oabp.aip_supported")).toEqual(manifest.aip_supported);
  });

  it("AIP-1 §9.2: HEAD /specs/AIP-1.zip answers 200 with the Content-Length of the GET", async () => {
    const get = await t.app.request("/specs/AIP-1.zip");
    const bytes = (await get.arrayBuffer()).byteLength;
    const head = await t.app.request("/specs/AIP-1.zip", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("application/zip");
    expect(head.headers.get("content-disposition")).toBe('attachment; filename="AIP-1.zip"');
    expect(Number(head.headers.get("content-length"))).toBe(bytes);
    expect(bytes).toBeGreaterThan(0);
  });

});

describe("AIP-1 §7.5.2 on a server with a tight sign-in limit", () => {
  const tight = useTestApp({ OABP_RATE_LIMIT_SESSION_IP: "3/3600" });

  it("AIP-1 §7.5.2: a changed User-Agent does not escape a rate limit", async () => {
    const nonce = (ua: string) => tight.call("POST", "/auth/nonce", { headers: { "user-agent": ua } });
    for (const ua of ["agent-a/1.0", "agent-b/2.0", "curl/8.5.0"]) expect((await nonce(ua)).status).toBe(200);
    const refused = await nonce("a-brand-new-client/0.1 (+https://example.org)");
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe("RATE_LIMITED");
  });
});

describe("AIP-2 statements no other test shows", () => {
  it("AIP-2 §6: a typed mission still carries every AIP-1 §2 field", async () => {
    const typeParams = {
      target_url: "https://github.com/example/repo/pull/1",
      language: "typescript",
      review_scope: ["bugs", "security"],
      output_format: "markdown",
    };
    const { mission } = await openMission(t, { mission_type: "code_review", type_params: typeParams });
    const m = await json(`/missions/${mission.id}`);
    expect(m).toMatchObject({ mission_type: "code_review", type_params: typeParams });
    for (const field of ["id", "creator", "title", "description", "reward", "verification", "deadline", "status", "created_at"])
      expect(m, field).toHaveProperty(field);
    expect(m.reward).toMatchObject({ asset: "USDC", amount: "100000000" });
    expect(m.verification).toMatchObject({ type: "creator_judges" });
    expect(m.status).toBe("open");
  });
});
