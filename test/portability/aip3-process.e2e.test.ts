import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attestationSigners } from "../../src/features/portability/portability.format";
import { makeTestApp, TEST_CONTENT_HOST, type TestApp } from "../helpers/app";
import { freePort } from "../helpers/issuer";
import { E2E_ADMIN, freshPostgresDatabase, startServer, type ServerProcess } from "../helpers/process";

// AIP-3 across processes: a second real server process, with its own attestation key generated
// into its own data dir, issues an attestation for an agent that won a mission there; this server
// (in-process, its fetcher allowed to reach that loopback address only) verifies it against the
// other's manifest and imports it.

let proc: ServerProcess;
let base: string;
let dataDir: string;
let dropDb: (() => Promise<void>) | undefined;
let T: TestApp;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "oabp-aip3-"));
  const port = await freePort(TEST_CONTENT_HOST);
  base = `http://${TEST_CONTENT_HOST}:${port}`;
  const env: Record<string, string> = {
    OABP_DATA_DIR: dataDir,
    HOST: TEST_CONTENT_HOST,
    PORT: String(port),
    OABP_PUBLIC_URL: base,
  };
  if (process.env.DATABASE_URL) {
    const fresh = await freshPostgresDatabase("oabp_aip3");
    env.DATABASE_URL = fresh.url;
    dropDb = fresh.drop;
  } else env.DATABASE_URL = "";
  // A loaded machine can take well over 30 s to start a process (tsx + migrations).
  proc = await startServer(env, { startTimeoutMs: 150_000 });
  T = await makeTestApp({ OABP_TRUSTED_ISSUERS: JSON.stringify([{ url: base, trust_factor: 0.8 }]) });
}, 180_000);

afterAll(async () => {
  if (proc && proc.child.exitCode === null) {
    proc.child.kill("SIGTERM");
    await proc.exited;
  }
  await dropDb?.();
  await T?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const json = async (method: string, p: string, body?: unknown, token?: string) => {
  const res = await fetch(base + p, {
    method,
    headers: {
      ...(body !== undefined && { "content-type": "application/json" }),
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

async function signIn() {
  const account = privateKeyToAccount(generatePrivateKey());
  const { nonce } = (await json("POST", "/auth/nonce")).body;
  const message = createSiweMessage({
    address: account.address,
    chainId: 8453,
    domain: new URL(base).host,
    nonce,
    uri: base,
    version: "1",
    issuedAt: new Date(),
  });
  const r = await json("POST", "/auth/siwe", { message, signature: await account.signMessage({ message }) });
  expect(r.status).toBe(200);
  return { token: r.body.token as string, address: account.address.toLowerCase() };
}

describe("AIP-3 import from a second server process", () => {
  it("the other process's attestation verifies against its manifest and imports here", async () => {
    // Its key was generated into its data dir (mode 0600) and published as issuer_address.
    const keyFile = path.join(dataDir, "attestation-key.json");
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
