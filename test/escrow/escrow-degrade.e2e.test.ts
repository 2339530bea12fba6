import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { keccak256, toBytes } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { ADMIN_TOKEN } from "../helpers/app";
import { onRealPostgres } from "../helpers/db";
import { ADMIN_DELAY, startEscrowChain, type EscrowChain } from "../helpers/escrow-chain";
import {
  E2E_ADMIN,
  freshPostgresDatabase,
  httpCall,
  httpSignIn,
  startServer,
  type ServerProcess,
} from "../helpers/process";
import { startRpcProxy, type RpcProxy } from "../helpers/rpc-proxy";

// docs/base-rail.md "Degrade, never exit": a key-less API process (OABP_RESOLVER_ADDRESS, no key)
// whose RPC is unreachable, or whose resolver lacks RESOLVER_ROLE, starts and serves the ledger
// rail; the base rail is marked unavailable with the reason (manifest, /ready, 503 on a new base
// mission) and comes back by itself once the RPC answers / the role is restored.

const ROLE = keccak256(toBytes("RESOLVER_ROLE"));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Polls `cond` until it holds; throws after a generous bound (not a timing assertion). */
async function until(cond: () => Promise<boolean>, what: string, limitMs = 60_000) {
  for (const end = Date.now() + limitMs; !(await cond()); await sleep(100))
    if (Date.now() > end) throw new Error(`not reached: ${what}`);
}

let chain: EscrowChain;
let proxy: RpcProxy;
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  chain = await startEscrowChain();
  proxy = await startRpcProxy(chain.anvil.rpcUrl);
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  await proxy?.close();
  await chain?.stop();
});

async function keylessServer(): Promise<ServerProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), "oabp-degrade-"));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  let url = "";
  if (onRealPostgres) {
    const db = await freshPostgresDatabase("oabp_degrade");
    cleanups.push(db.drop);
    url = db.url;
  }
  const { OABP_RESOLVER_KEY: _key, ...env } = chain.env({ OABP_RPC_URL: proxy.url });
  const p = await startServer({
    ...env,
    OABP_RESOLVER_ADDRESS: chain.resolver.address,
    OABP_DATA_DIR: dir,
    DATABASE_URL: url,
    OABP_JOB_INTERVAL_MS: "200",
  });
  cleanups.push(async () => {
    if (p.child.exitCode === null) p.child.kill("SIGTERM");
    await p.exited;
  });
  return p;
}

/** An admin call on the escrow (anvil account 0 is the admin), mined. */
async function writeAdmin(functionName: "revokeRole" | "proposeResolver" | "activateResolver", args: unknown[]) {
  const admin = chain.anvil.walletClient;
  const hash = await admin.writeContract({
    address: chain.escrow,
    abi: missionEscrowAbi,
    functionName,
    args,
  } as Parameters<typeof admin.writeContract>[0]);
  expect((await chain.anvil.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
}

const baseOption = async (s: ServerProcess) =>
  (await httpCall(s.base, "GET", "/.well-known/oabp.json")).body.payment_options.base;

function missionBody(reward: bigint, chainName?: "base") {
  return {
    title: "Degraded rail",
    description: "A mission posted while the base rail is down.",
    reward: { asset: "USDC", amount: reward.toString(), ...(chainName ? { chain: chainName } : {}) },
    verification: { type: "creator_judges", params: {} },
    deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  };
}

/** The ledger rail end to end over HTTP: credit, post, submit, award; the winner is paid on the ledger. */
async function ledgerRoundTrip(s: ServerProcess) {
  const creator = await httpSignIn(s.base);
  const solver = await httpSignIn(s.base);
  const credit = await httpCall(
    s.base,
    "POST",
    "/admin/ledger/credit",
    { agent_id: creator.address, asset: "USDC", amount: "200000000" },
    E2E_ADMIN,
  );
  expect(credit.status, credit.text).toBe(200);
  const m = await httpCall(s.base, "POST", "/missions", missionBody(100_000_000n), creator.token);
  expect(m.status, m.text).toBe(201);
  const sub = await httpCall(s.base, "POST", `/missions/${m.body.id}/submissions`, { content: "done" }, solver.token);
  expect(sub.status, sub.text).toBe(201);
  const award = await httpCall(
    s.base,
    "POST",
    `/missions/${m.body.id}/award`,
    { winners: [{ submission_id: sub.body.id }] },
    creator.token,
  );
  expect(award.status, award.text).toBe(200);
  const after = await httpCall(s.base, "GET", `/missions/${m.body.id}`);
  expect(after.body).toMatchObject({ status: "resolved" });
  expect(after.body.escrow ?? null).toBeNull(); // the ledger rail: no chain escrow
  return creator;
}

async function baseCreate(s: ServerProcess, token: string) {
  return httpCall(s.base, "POST", "/missions", missionBody(10_000_000n, "base"), token);
}

describe("degrade, never exit: the key-less API (real process)", () => {
  it("starts with the RPC down, serves the ledger rail, refuses base missions with 503; the rail comes back", async () => {
    proxy.down = true;
    const s = await keylessServer();
    expect(await baseOption(s)).toMatchObject({
      enabled: true,
      available: false,
      unavailable_reason: "rpc_unavailable",
    });
    const ready = await httpCall(s.base, "GET", "/ready");
    expect(ready.status).toBe(200);
    expect(ready.body.base_rail).toMatchObject({ available: false, reason: "rpc_unavailable" });
    const treasury = await httpCall(s.base, "GET", "/treasury", undefined, E2E_ADMIN);
    expect(treasury.body.base_rail).toMatchObject({ available: false, unavailable_reason: "rpc_unavailable" });

    const creator = await ledgerRoundTrip(s);
    const refused = await baseCreate(s, creator.token);
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body.details).toMatchObject({ reason: "rail_unavailable", rail_reason: "rpc_unavailable" });

    proxy.down = false; // the background check finds the RPC again
    await until(async () => (await baseOption(s)).available === true, "the rail is available again");
    expect(await baseOption(s)).toMatchObject({ unavailable_reason: null });
    const created = await baseCreate(s, creator.token);
    expect(created.status, created.text).toBe(201);
    expect(s.child.exitCode).toBeNull();
  }, 240_000);

  it("the worker refuses to sign without the role: a refund waits (waiting:resolver_role_missing), never fails, then pays", async () => {
    proxy.down = false;
    const { makeTestApp } = await import("../helpers/app");
    const t = await makeTestApp(chain.env());
    cleanups.push(() => t.close());
    const { createBaseMission, escrowTick } = await import("../helpers/escrow-chain");
    const { refreshRail } = await import("../../src/features/rail/rail.status");
    const tick = async () => {
      await refreshRail(t.deps);
      await escrowTick(t);
    };
    const mission = async (id: string) => (await t.call("GET", `/missions/${id}`)).body;
    const { creator, m, key } = await createBaseMission(t, 10_000_000n);
    await chain.fund(creator.account, key, 10_000_000n, 5_000_000n);
    await chain.mine(2);
    await tick();
    await tick();
    expect((await mission(m.id)).status).toBe("open");
    await writeAdmin("revokeRole", [ROLE, chain.resolver.address]);
    expect((await t.call("POST", `/missions/${m.id}/void`, { token: creator.token })).status).toBe(200);
    const payout = async () =>
      (await t.call("GET", "/treasury", { token: ADMIN_TOKEN })).body.base_rail.pending_settlements.items.find(
        (p: { mission_id: string }) => p.mission_id === m.id,
      );
    for (let i = 0; i < 4; i++) {
      await tick();
      t.clock.advance(11 * 60_000); // past any backoff: every round looks at the payout again
    }
    expect(await payout()).toMatchObject({ state: "queued", reason: "waiting:resolver_role_missing" });
    expect((await mission(m.id)).payout_status).toBe("queued");
    expect(await chain.usdcBalance(creator.address)).toBe(0n);

    await writeAdmin("proposeResolver", [chain.resolver.address]);
    await chain.anvil.testClient.increaseTime({ seconds: ADMIN_DELAY + 1 });
    await chain.mine(1);
    await writeAdmin("activateResolver", []);
    for (let i = 0; i < 20 && (await mission(m.id)).payout_status !== "confirmed"; i++) {
      t.clock.advance(11 * 60_000);
      await tick();
      await chain.mine(1);
    }
    expect((await mission(m.id)).payout_status).toBe("confirmed");
    expect(await chain.usdcBalance(creator.address)).toBe(10_000_000n);
  }, 240_000);

  it("starts with RESOLVER_ROLE revoked, serves the ledger rail; the rail comes back once the role is restored", async () => {
    proxy.down = false;
    const write = writeAdmin;
    await write("revokeRole", [ROLE, chain.resolver.address]);
    const s = await keylessServer();
    // On a loaded machine the first probe may time out (then the rail reads rpc_unavailable, also
    // unavailable); the background check repeats each poll until it reads the role.
    await until(
      async () => (await baseOption(s)).unavailable_reason === "resolver_role_missing",
      "the missing role is seen",
    );
    expect(await baseOption(s)).toMatchObject({ available: false, unavailable_reason: "resolver_role_missing" });
    const creator = await ledgerRoundTrip(s);
    const refused = await baseCreate(s, creator.token);
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body.details).toMatchObject({ reason: "rail_unavailable", rail_reason: "resolver_role_missing" });

    // The rotation's second step: propose, wait the admin delay, activate.
    await write("proposeResolver", [chain.resolver.address]);
    await chain.anvil.testClient.increaseTime({ seconds: ADMIN_DELAY + 1 });
    await chain.mine(1);
    await write("activateResolver", []);
    await until(async () => (await baseOption(s)).available === true, "the rail is available again");
    expect((await baseCreate(s, creator.token)).status).toBe(201);
    expect(s.child.exitCode).toBeNull();
  }, 240_000);
});
