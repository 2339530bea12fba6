import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_ADMIN, freshPostgresDatabase, startServer, type ServerProcess } from "../helpers/process";

// Boots the real process and drives it over real HTTP: the whole product path a user takes —
// sign in with SIWE, get credited, post a mission, find it, submit, see it.
const ADMIN = E2E_ADMIN;
const start = startServer;
type Proc = ServerProcess;

describe("e2e: the real process over HTTP", () => {
  let proc: Proc;
  let base: string;
  let dataDir: string;
  let dropDb: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "oabp-e2e-"));
    const env: Record<string, string> = { OABP_DATA_DIR: dataDir };
    if (process.env.DATABASE_URL) {
      const fresh = await freshPostgresDatabase("oabp_e2e");
      env.DATABASE_URL = fresh.url;
      dropDb = fresh.drop;
    } else {
      env.DATABASE_URL = "";
    }
    proc = await start(env);
    base = proc.base;
  });

  afterAll(async () => {
    if (proc && proc.child.exitCode === null) {
      proc.child.kill("SIGKILL");
      await proc.exited;
    }
    await dropDb?.();
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

  it("sign in with SIWE → credited → create → list → submit → see the submission", async () => {
    expect((await json("GET", "/health")).body.status).toBe("ok");
    expect((await json("GET", "/ready")).status).toBe(200);

    const creator = privateKeyToAccount(generatePrivateKey());
    const solver = privateKeyToAccount(generatePrivateKey());
    // SIWE binds the message to this server's domain: the host of OABP_PUBLIC_URL.
    const signIn = async (account: typeof creator, domain = "oabp-e2e.test") => {
      const { nonce } = (await json("POST", "/auth/nonce")).body;
      const message = createSiweMessage({
        address: account.address,
        chainId: 8453,
        domain,
        nonce,
        uri: `https://${domain}`,
        version: "1",
      });
      return json("POST", "/auth/siwe", { message, signature: await account.signMessage({ message }) });
    };
    expect((await signIn(creator, "evil.example")).status).toBe(401);
    const creatorToken = (await signIn(creator)).body.token as string;
    const solverToken = (await signIn(solver)).body.token as string;

    const credited = await json(
      "POST",
      "/admin/ledger/credit",
      { agent_id: creator.address, asset: "USDC", amount: "250000000" },
      ADMIN,
    );
    expect(credited).toMatchObject({ status: 200, body: { balance: "250000000" } });

    const deadline = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const created = await json(
      "POST",
      "/missions",
      {
        title: "Summarise AIP-1 §6.1",
        description: "One paragraph on portable receipts.",
        reward: { asset: "USDC", amount: "100000000" },
        verification: { type: "creator_judges", params: { max_winners: 1 } },
        deadline,
        tags: ["writing"],
      },
      creatorToken,
    );
    expect(created.status).toBe(201);
    const id = created.body.id as string;

    const list = await json("GET", "/missions?status=open&tag=writing&q=receipts");
    expect(list.body.missions.map((m: { id: string }) => m.id)).toContain(id);
    expect((await json("GET", "/api/missions")).body.missions.map((m: { id: string }) => m.id)).toContain(id);

    const sub = await json(
      "POST",
      `/missions/${id}/submissions`,
      { content: "Receipts are JCS + ed25519 signed documents." },
      solverToken,
    );
    expect(sub.status).toBe(201);
    expect(sub.body).toMatchObject({ mission_id: id, submitter: solver.address.toLowerCase(), status: "pending" });
    expect(sub.body.reason).toBeTruthy();
    expect(sub.body.next_action).toBeTruthy();

    const seen = await json("GET", `/missions/${id}/submissions`, undefined, creatorToken);
    expect(seen.body.submissions).toHaveLength(1);
    expect(seen.body.submissions[0]).toMatchObject({ id: sub.body.id, content_hash: sub.body.content_hash });
    // Lists link an inline deliverable to its content route (docs/abuse.md); the route serves it.
    expect(seen.body.submissions[0].content_uri).toMatch(
      new RegExp(`/missions/${id}/submissions/${sub.body.id}/content$`),
    );
    expect(
      (await json("GET", `/missions/${id}/submissions/${sub.body.id}`, undefined, creatorToken)).body.content_uri,
    ).toMatch(/^data:text\/plain/);
    expect((await json("GET", `/missions/${id}`)).body.submission_count).toBe(1);
    expect((await json("GET", `/agents/${creator.address}`)).body.aigen_balance).toBe(145000000);
  });

  it("refuses a second server on the same data directory, then shuts down cleanly on SIGTERM", async () => {
    if (!process.env.DATABASE_URL) {
      await expect(start({ OABP_DATA_DIR: dataDir, DATABASE_URL: "" })).rejects.toThrow(/in use by process/);
    }
    proc.child.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    expect(existsSync(path.join(dataDir, "oabp.lock"))).toBe(false);
  });
});
