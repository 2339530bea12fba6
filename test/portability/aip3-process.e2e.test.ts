import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attestationSigners } from "../../src/features/portability/portability.format";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { freePort } from "../helpers/issuer";
import { E2E_ADMIN, httpCall, httpSignIn, startHub, type Hub } from "../helpers/process";

// AIP-3 across processes: a second real server process, with its own attestation key generated
// into its own data dir, issues an attestation for an agent that won a mission there; this server
// (in-process, its fetcher allowed to reach that loopback address only) verifies it against the
// other's manifest and imports it.

let hub: Hub;
let base: string;
let T: TestApp;

beforeAll(async () => {
  hub = await startHub({ host: TEST_CONTENT_HOST, port: await freePort(TEST_CONTENT_HOST), prefix: "oabp_aip3" });
  base = hub.base;
  T = await makeTestApp({ OABP_TRUSTED_ISSUERS: JSON.stringify([{ url: base, trust_factor: 0.8 }]) });
}, 180_000);

afterAll(async () => {
  await hub?.stop();
  await T?.close();
});

const json = (method: string, p: string, body?: unknown, token?: string) => httpCall(base, method, p, body, token);
/** SIWE on the other process, whose public URL is its own address. */
const signIn = () => httpSignIn(base, { publicUrl: base });

describe("AIP-3 import from a second server process", () => {
  it("the other process's attestation verifies against its manifest and imports here", async () => {
    // Its key was generated into its data dir (mode 0600) and published as issuer_address.
    const keyFile = path.join(hub.dataDir, "attestation-key.json");
    expect(existsSync(keyFile)).toBe(true);
    const manifest = (await json("GET", "/.well-known/oabp.json")).body;
    expect(manifest.issuer_address).toBe(JSON.parse(readFileSync(keyFile, "utf8")).address);
    expect(manifest.issuer_address).not.toBe(T.deps.attestation.address);

    const creator = await signIn();
    const solver = await signIn();
    expect(
      (
        await json(
          "POST",
          "/admin/ledger/credit",
          { agent_id: creator.address, asset: "USDC", amount: "1000000000" },
          E2E_ADMIN,
        )
      ).status,
    ).toBe(200);
    const mission = await json(
      "POST",
      "/missions",
      {
        title: "Name the capital",
        description: "Answer with the capital of France.",
        reward: { asset: "USDC", amount: "100000000" },
        verification: { type: "first_valid_match", params: { expected: "paris" } },
        deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      },
      creator.token,
    );
    expect(mission.status).toBe(201);
    const sub = await json(
      "POST",
      `/missions/${mission.body.id}/submissions`,
      { content: "It is Paris" },
      solver.token,
    );
    expect(sub.body.status).toBe("accepted");

    const attestation = (await json("GET", `/reputation/${solver.address}/attestation`)).body;
    expect(attestation.reputation.breakdown.bounties).toEqual({
      first_valid_match: 1,
      oracle: 0,
      creator_judges: 0,
      peer_vote: 0,
      total_weighted_points: 1,
    });
    expect(await attestationSigners(attestation)).toContain(manifest.issuer_address);
    const elo = attestation.reputation.elo as number;
    expect(elo).toBeGreaterThan(1400);

    // The attestation was issued on the wall clock; this app's clock is 2026-06-01: move it there.
    T.clock.set(new Date(attestation.issued_at));
    const r = await T.call("POST", "/reputation/import", { body: attestation });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      imported: true,
      subject_address: solver.address,
      issuer: `${base}/`,
      trust_factor_applied: 0.8,
      initial_elo: Math.floor(1400 + (elo - 1400) * 0.8),
    });
    const profile = (await T.call("GET", `/agents/${solver.address}`)).body;
    expect(profile.rating).toBe(1400);
    expect(profile.imported_reputation.sources[0]).toMatchObject({
      issuer: `${base}/`,
      server_address: manifest.issuer_address,
      attested_elo: elo,
    });

    // Forged in transit: refused.
    const forged = {
      ...attestation,
      reputation: { ...attestation.reputation, missions_completed: 40, breakdown: undefined },
    };
    const bad = await T.call("POST", "/reputation/import", { body: forged });
    expect(bad.body).toMatchObject({ imported: false, reason: "signature_invalid" });
  }, 60_000);
});
