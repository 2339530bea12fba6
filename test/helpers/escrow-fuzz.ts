import { encodeFunctionData, erc20Abi, keccak256, toBytes, toHex, type Hex } from "viem";
import { mnemonicToAccount, type HDAccount } from "viem/accounts";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { startAnvil } from "./anvil";
import { EscrowModel, type A, type Terms } from "./escrow-fuzz-model";
import { CFG, prng, usdcAbi, type FuzzCtx } from "./escrow-fuzz-ctx";
import { OPS, runOp } from "./escrow-fuzz-ops";
import { U } from "./escrow-v3";

// Invariant suite of contract v4 (or v3: `version`) (random sequences of every entry point by random actors, seeded):
// each step (escrow-fuzz-ops.ts) is one real transaction on anvil; the model (escrow-fuzz-model.ts) says whether it may
// succeed and what it must move; after every step the chain is compared with the model. Used by
// test/chain/escrow-invariants.e2e.test.ts (small) and `npm run bench:escrow-fuzz` (large).

const MNEMONIC = "test test test test test test test test test test test junk";
const NAMES = ["admin1", "admin2", "resolver1", "resolver2", "guardian1", "guardian2", "treasury"] as const;
const FUNDERS = ["f0", "f1", "f2", "f3", "s0", "s1"] as const;

export interface FuzzOptions {
  seed: number;
  sequences: number;
  steps: number;
  /** The contract under test: "4" (contracts/MissionEscrow.sol, default) or "3" (legacy). */
  version?: "3" | "4";
}
export interface FuzzResult {
  sequences: number;
  steps: number;
  transactions: number;
  succeeded: number;
  violations: string[];
  disagreements: string[];
  ops: Record<string, { ok: number; refused: number }>;
  maxOverpaid: bigint;
  /** States the sequences reached (cap_reached, proposal_revoked, governance_during_proposals, …). */
  notes: Record<string, number>;
  ms: number;
}

export async function runEscrowFuzz(opts: FuzzOptions): Promise<FuzzResult> {
  const started = performance.now();
  const anvil = await startAnvil({ chainId: 8453 });
  let id = 0;
  const post = async (body: unknown): Promise<unknown> => {
    const res = await fetch(anvil.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return res.json();
  };
  const rpc = async <T = unknown>(method: string, params: unknown[]): Promise<T> => {
    const r = (await post({ jsonrpc: "2.0", id: ++id, method, params })) as { result: T; error?: unknown };
    if (r.error) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    return r.result;
  };
  const batch = async (calls: { to: A; data: Hex }[]): Promise<Hex[]> => {
    const base = id;
    const body = calls.map((c, i) => ({ jsonrpc: "2.0", id: base + i + 1, method: "eth_call", params: [c, "latest"] }));
    id += calls.length;
    const out = (await post(body)) as { id: number; result: Hex }[];
    return out.sort((x, y) => x.id - y.id).map((r) => r.result);
  };

  const acct = {} as Record<string, HDAccount>;
  [...NAMES, ...FUNDERS].forEach((n, i) => (acct[n] = mnemonicToAccount(MNEMONIC, { addressIndex: 40 + i })));
  const addr = (n: string) => acct[n]!.address.toLowerCase() as A;
  const actors = [...NAMES, ...FUNDERS].map(addr);
  const byAddr = new Map(Object.values(acct).map((a) => [a.address.toLowerCase() as A, a]));

  const result: FuzzResult = {
    sequences: 0,
    steps: 0,
    transactions: 0,
    succeeded: 0,
    violations: [],
    disagreements: [],
    ops: {},
    maxOverpaid: 0n,
    notes: {},
    ms: 0,
  };
  const v4 = (opts.version ?? "4") === "4";
  try {
    await rpc("anvil_autoImpersonateAccount", [true]);
    const usdc = (await anvil.deploy("TestUSDC")).toLowerCase() as A;
    const escrow = (
      await anvil.deploy(v4 ? "MissionEscrow" : "MissionEscrowV3", [
        addr("admin1"),
        addr("resolver1"),
        addr("guardian1"),
        addr("treasury"),
        Number(CFG.feeCapBps),
        Number(CFG.adminDelay),
        Number(CFG.releaseDelay),
        Number(CFG.capPeriod),
        [usdc],
        [CFG.cap],
      ])
    ).toLowerCase() as A;
    const MINT = U(1_000_000);
    const mints: Hex[] = [];
    for (const a of actors) {
      await rpc("anvil_setBalance", [a, toHex(10n ** 21n)]);
      mints.push(
        await rpc<Hex>("eth_sendTransaction", [
          {
            from: anvil.account.address,
            to: usdc,
            data: encodeFunctionData({ abi: usdcAbi, functionName: "mint", args: [a, MINT] }),
          },
        ]),
      );
    }
    // anvil answers eth_sendTransaction before its instant miner has mined it: on a loaded machine
    // the last mint could land after the snapshot below, and every later sequence would start
    // without it. Every mint is mined before the snapshot.
    for (const hash of mints) {
      while ((await rpc("eth_getTransactionReceipt", [hash])) === null) await new Promise((r) => setTimeout(r, 20));
    }
    const t0 = BigInt((await rpc<{ timestamp: Hex }>("eth_getBlockByNumber", ["latest", false])).timestamp);
    let snap = await rpc<Hex>("evm_snapshot", []);

    for (let seq = 0; seq < opts.sequences; seq++) {
      const r = prng(opts.seed * 100_003 + seq);
      const m = new EscrowModel({
        escrow,
        treasury: addr("treasury"),
        admin: addr("admin1"),
        resolver: addr("resolver1"),
        guardian: addr("guardian1"),
        ...CFG,
        v4,
      });
      m.time = t0;
      for (const a of actors) m.bal.set(a, MINT);
      const propTerms = new Map<string, Terms>();
      // A few keys in play at a time; funding sometimes opens a fresh one (a released key takes no more deposits).
      const keyOf = (i: number) => keccak256(toBytes(`fuzz-${opts.seed}-${seq}-${i}`));
      const keys = [0, 1, 2].map(keyOf);
      const E = (fn: string, args: unknown[]) =>
        encodeFunctionData({ abi: missionEscrowAbi, functionName: fn as never, args: args as never });

      /** One transaction at the model's next second (every block's time is the model's). */
      const send = async (from: A, to: A, data: Hex): Promise<boolean> => {
        m.time += 1n;
        await rpc("evm_setNextBlockTimestamp", [toHex(m.time)]);
        const hash = await rpc<Hex>("eth_sendTransaction", [{ from, to, data, gas: toHex(3_000_000) }]);
        // Automine: the receipt is there within a few polls.
        for (let tries = 0; tries < 2_000; tries++) {
          const receipt = await rpc<{ status: Hex } | null>("eth_getTransactionReceipt", [hash]);
          if (receipt) {
            result.transactions++;
            return receipt.status === "0x1";
          }
          await new Promise((res) => setTimeout(res, 1));
        }
        throw new Error(`no receipt for ${hash}`);
      };
      /** Sends `data` with the model's verdict; records violations and disagreements; applies on success. */
      const step = async (op: string, from: A, to: A, data: Hex, allowed: boolean, apply: () => void) => {
        const ok = await send(from, to, data);
        const o = (result.ops[op] ??= { ok: 0, refused: 0 });
        if (ok) {
          o.ok++;
          result.succeeded++;
          if (!allowed) result.violations.push(`seed ${opts.seed} seq ${seq}: ${op} by ${from} succeeded, not allowed`);
          apply();
        } else {
          o.refused++;
          if (allowed)
            result.disagreements.push(`seed ${opts.seed} seq ${seq}: ${op} by ${from} reverted, model allowed it`);
        }
      };
      const ctx: FuzzCtx = {
        m,
        r,
        actors,
        funders: FUNDERS.map(addr),
        addr,
        acct,
        byAddr,
        keys,
        keyOf,
        propTerms,
        usdc,
        escrow,
        chainId: anvil.chainId,
        auths: [],
        note: (what) => (result.notes[what] = (result.notes[what] ?? 0) + 1),
        send,
        step,
      };

      for (let i = 0; i < opts.steps; i++) {
        result.steps++;
        const op = r.pick(OPS);
        await runOp(ctx, op);
        await check(i);
      }
      result.sequences++;
      await rpc("evm_revert", [snap]);
      snap = await rpc("evm_snapshot", []);

      async function check(i: number) {
        const calls = [
          { to: usdc, data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [escrow] }) },
          { to: escrow, data: E("held", [usdc]) },
          ...actors.flatMap((a) => [
            { to: usdc, data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [a] }) },
            { to: escrow, data: E("credits", [usdc, a]) },
          ]),
        ];
        const out = (await batch(calls)).map((h) => BigInt(h));
        const [balance, held] = out as [bigint, bigint];
        const where = `seed ${opts.seed} seq ${seq} step ${i}`;
        if (held !== m.held()) result.violations.push(`${where}: held ${held} ≠ Σ slots + Σ credits ${m.held()}`);
        if (balance !== m.held() + m.surplus)
          result.violations.push(`${where}: balance ${balance} ≠ slots + credits + surplus ${m.held() + m.surplus}`);
        actors.forEach((a, j) => {
          const [b, c] = [out[2 + 2 * j]!, out[3 + 2 * j]!];
          const over = b + c - (m.get(m.bal, a) + m.get(m.credits, a));
          if (over > result.maxOverpaid) result.maxOverpaid = over;
          if (b !== m.get(m.bal, a) || c !== m.get(m.credits, a)) {
            result.violations.push(
              `${where}: ${a} holds ${b} + credit ${c}, model ${m.get(m.bal, a)} + ${m.get(m.credits, a)}`,
            );
            m.bal.set(a, b);
            m.credits.set(a, c);
          }
        });
      }
    }
  } finally {
    await anvil.stop();
  }
  result.ms = Math.round(performance.now() - started);
  return result;
}
