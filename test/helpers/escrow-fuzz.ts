import {
  encodeFunctionData,
  erc20Abi,
  keccak256,
  parseAbi,
  parseSignature,
  parseUnits,
  toBytes,
  toHex,
  type Hex,
} from "viem";
import { mnemonicToAccount, type HDAccount } from "viem/accounts";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { startAnvil } from "./anvil";
import { signReleaseWith } from "./escrow-chain";
import { EscrowModel, type A, type Terms } from "./escrow-fuzz-model";

// Invariant suite of contract v3 (random sequences of every entry point by random actors, seeded):
// each step is one real transaction on anvil; the model (escrow-fuzz-model.ts) says whether it may
// succeed and what it must move; after every step the chain is compared with the model. Used by
// test/chain/escrow-invariants.e2e.test.ts (small) and `npm run bench:escrow-fuzz` (large).

const MNEMONIC = "test test test test test test test test test test test junk";
const U = (n: number) => parseUnits(String(n), 6);
const RESOLVER_ROLE = keccak256(toBytes("RESOLVER_ROLE"));
const CFG = { feeCapBps: 100n, adminDelay: 3600n, releaseDelay: 600n, capPeriod: 86_400n, cap: U(150) };
const usdcAbi = parseAbi([
  "function mint(address to, uint256 amount)",
  "function setBlacklisted(address account, bool value)",
  "function transfer(address to, uint256 amount) returns (bool)",
]);
const NAMES = ["admin1", "admin2", "resolver1", "resolver2", "guardian1", "guardian2", "treasury"] as const;
const FUNDERS = ["f0", "f1", "f2", "f3", "s0", "s1"] as const;

export interface FuzzOptions {
  seed: number;
  sequences: number;
  steps: number;
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
  ms: number;
}

/** mulberry32: a small seeded PRNG, so a failing sequence can be replayed from its seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, int, chance: (p: number) => next() < p, pick: <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]! };
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
    ms: 0,
  };
  try {
    await rpc("anvil_autoImpersonateAccount", [true]);
    const usdc = (await anvil.deploy("TestUSDC")).toLowerCase() as A;
    const escrow = (
      await anvil.deploy("MissionEscrow", [
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
    for (const a of actors) {
      await rpc("anvil_setBalance", [a, toHex(10n ** 21n)]);
      await rpc("eth_sendTransaction", [
        {
          from: anvil.account.address,
          to: usdc,
          data: encodeFunctionData({ abi: usdcAbi, functionName: "mint", args: [a, MINT] }),
        },
      ]);
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
      const caller = (preferred: Iterable<A>) => {
        const p = [...preferred];
        return p.length && r.chance(0.8) ? r.pick(p) : r.pick(actors);
      };
      const pickSlot = (): [Hex, A] => {
        const live = [...m.slots.keys()];
        if (live.length && r.chance(0.85)) {
          const [k, f] = r.pick(live).split(":");
          return [k as Hex, f as A];
        }
        return [r.pick(keys), addr(r.pick(FUNDERS))];
      };
      const terms = (key: Hex, funder: A): Terms => {
        const base = m.slot(key, funder)?.amount ?? U(50);
        const n = r.chance(0.03) ? 0 : r.int(1, 3);
        const paid = r.chance(0.05) ? base + 1n : (base * BigInt(r.int(0, 100))) / 100n;
        const amounts = Array.from({ length: n }, (_, i) =>
          i === 0 ? paid - (paid / BigInt(n)) * BigInt(n - 1) : paid / BigInt(n),
        );
        const fee = r.chance(0.3) ? 0n : r.chance(0.05) ? paid / 50n + 1n : paid / 99n;
        const recipients = Array.from({ length: n }, () => r.pick(actors));
        return { recipients, amounts, fee };
      };

      for (let i = 0; i < opts.steps; i++) {
        result.steps++;
        const op = r.pick(OPS);
        switch (op) {
          case "fund":
          case "fundUntil":
          case "fundUntilWithPermit": {
            const f = r.chance(0.85) ? addr(r.pick(FUNDERS)) : r.pick(actors);
            if (r.chance(0.25)) keys.push(keyOf(keys.length));
            const key = r.chance(0.5) ? keys.at(-1)! : r.pick(keys.slice(-4));
            const amount = U(r.int(1, 200));
            const spam = r.chance(0.5) ? U(1) : 0n;
            let refundAfter = m.time + 2n + BigInt(r.int(60, 40 * 86_400));
            if (r.chance(0.05)) refundAfter = m.time + 1n + 3n * 365n * 86_400n;
            let data: Hex;
            let permitOk = false;
            if (op === "fundUntilWithPermit") {
              const deadline = m.time + 3600n;
              permitOk = r.chance(0.85);
              const signer = permitOk ? byAddr.get(f)! : f === addr("s1") ? acct.s0! : acct.s1!;
              const sig = await signer.signTypedData({
                domain: { name: "Test USD Coin", version: "1", chainId: anvil.chainId, verifyingContract: usdc },
                types: {
                  Permit: [
                    { name: "owner", type: "address" },
                    { name: "spender", type: "address" },
                    { name: "value", type: "uint256" },
                    { name: "nonce", type: "uint256" },
                    { name: "deadline", type: "uint256" },
                  ],
                },
                primaryType: "Permit",
                message: { owner: f, spender: escrow, value: amount + spam, nonce: m.get(m.permitNonce, f), deadline },
              });
              const { r: pr, s: ps, v, yParity } = parseSignature(sig);
              data = E(op, [key, usdc, amount, spam, refundAfter, deadline, Number(v ?? BigInt(yParity + 27)), pr, ps]);
            } else {
              if (r.chance(0.9)) {
                const approve = encodeFunctionData({
                  abi: erc20Abi,
                  functionName: "approve",
                  args: [escrow, amount + spam],
                });
                if (await send(f, usdc, approve)) m.allowance.set(f, amount + spam);
              }
              if (op === "fund") refundAfter = m.time + 1n + 365n * 86_400n;
              data = op === "fund" ? E(op, [key, usdc, amount, spam]) : E(op, [key, usdc, amount, spam, refundAfter]);
            }
            const at = m.time + 1n;
            const allowed = ((): boolean => {
              m.time = at;
              const ok = m.allowedFund(f, key, amount, spam, refundAfter, permitOk);
              m.time = at - 1n;
              return ok;
            })();
            await step(op, f, escrow, data, allowed, () => m.applyFund(f, key, amount, spam, refundAfter, permitOk));
            break;
          }
          case "releaseSigned": {
            const [key, f] = pickSlot();
            const t = terms(key, f);
            const signer = r.chance(0.75) ? f : r.pick(actors);
            const sig = await signReleaseWith(
              byAddr.get(signer)!,
              { chainId: anvil.chainId, escrow },
              { missionKey: key, funder: f, ...t },
            );
            const c = caller(m.resolvers);
            m.time += 1n;
            const allowed = m.allowedReleaseSigned(c, key, f, t, signer === f);
            m.time -= 1n;
            await step(op, c, escrow, E(op, [key, f, t.recipients, t.amounts, t.fee, sig]), allowed, () =>
              m.applyRelease(key, f, t),
            );
            break;
          }
          case "proposeRelease": {
            const [key, f] = pickSlot();
            const t = terms(key, f);
            const c = caller(m.resolvers);
            m.time += 1n;
            const allowed = m.allowedPropose(c, key, f, t);
            m.time -= 1n;
            await step(op, c, escrow, E(op, [key, f, t.recipients, t.amounts, t.fee]), allowed, () => {
              m.applyPropose(key, f, t);
              propTerms.set(`${key}:${f}`, t);
            });
            break;
          }
          case "executeRelease": {
            const live = [...m.proposals.keys()];
            const [key, f] = (live.length && r.chance(0.85) ? r.pick(live).split(":") : pickSlot()) as [Hex, A];
            const t = r.chance(0.85) && propTerms.has(`${key}:${f}`) ? propTerms.get(`${key}:${f}`)! : terms(key, f);
            const c = r.pick(actors);
            const p = m.proposal(key, f);
            // Often wait for the window to end (sometimes to the very second it ends, or one short of it).
            if (p && m.time + 1n < p.executableAt && r.chance(0.6)) m.time = p.executableAt - BigInt(r.int(1, 2));
            m.time += 1n;
            const allowed = m.allowedExecute(key, f, t);
            m.time -= 1n;
            await step(op, c, escrow, E(op, [key, f, t.recipients, t.amounts, t.fee]), allowed, () =>
              m.applyExecute(key, f, t),
            );
            break;
          }
          case "cancelRelease": {
            const live = [...m.proposals.keys()];
            const [key, f] = (live.length && r.chance(0.85) ? r.pick(live).split(":") : pickSlot()) as [Hex, A];
            const c = caller(m.guardians);
            const allowed = m.guardians.has(c) && !!m.proposal(key, f);
            await step(op, c, escrow, E(op, [key, f]), allowed, () => m.proposals.delete(`${key}:${f}`));
            break;
          }
          case "pause":
          case "unpause": {
            const c = caller(m.guardians);
            const allowed = m.guardians.has(c) && m.paused === (op === "unpause");
            await step(op, c, escrow, E(op, []), allowed, () => (m.paused = op === "pause"));
            break;
          }
          case "refund": {
            const [key, f] = pickSlot();
            const c = caller(m.resolvers);
            await step(op, c, escrow, E(op, [key, f]), m.resolvers.has(c) && !!m.slot(key, f), () =>
              m.applyRefundTo(key, f),
            );
            break;
          }
          case "reclaim":
          case "selfRefund": {
            const [key, f] = pickSlot();
            const c = r.chance(0.9) ? f : r.pick(actors);
            m.time += 1n;
            const allowed = op === "reclaim" ? m.released.has(key) && !!m.slot(key, c) : m.allowedSelfRefund(c, key);
            m.time -= 1n;
            await step(op, c, escrow, E(op, [key]), allowed, () => m.applyRefundTo(key, c));
            break;
          }
          case "withdraw": {
            const withCredit = [...m.credits.keys()];
            const c = withCredit.length && r.chance(0.8) ? r.pick(withCredit) : r.pick(actors);
            await step(op, c, escrow, E(op, [usdc]), m.allowedWithdraw(c), () => m.applyWithdraw(c));
            break;
          }
          case "sweep": {
            const c = caller([m.admin]);
            const to = r.pick(actors);
            await step(op, c, escrow, E(op, [usdc, to]), m.allowedSweep(c, to), () => m.applySweep(to));
            break;
          }
          case "transfer": {
            const from = r.pick(actors);
            const x = U(r.int(1, 20));
            const data = encodeFunctionData({ abi: usdcAbi, functionName: "transfer", args: [escrow, x] });
            await step(op, from, usdc, data, !m.blacklisted.has(from), () => {
              m.add(m.bal, from, -x);
              m.add(m.bal, escrow, x);
              m.surplus += x;
            });
            break;
          }
          case "blacklist":
          case "unblacklist": {
            const who = op === "unblacklist" && m.blacklisted.size ? r.pick([...m.blacklisted]) : r.pick(actors);
            const data = encodeFunctionData({
              abi: usdcAbi,
              functionName: "setBlacklisted",
              args: [who, op === "blacklist"],
            });
            await step(op, r.pick(actors), usdc, data, true, () =>
              op === "blacklist" ? m.blacklisted.add(who) : m.blacklisted.delete(who),
            );
            break;
          }
          case "timeJump": {
            const d = r.chance(0.5)
              ? r.int(1, 700)
              : r.chance(0.6)
                ? r.int(700, 2 * 86_400)
                : r.int(2 * 86_400, 40 * 86_400);
            m.time += BigInt(d);
            break;
          }
          default:
            await governance(op);
        }
        await check(i);
      }
      result.sequences++;
      await rpc("evm_revert", [snap]);
      snap = await rpc("evm_snapshot", []);

      async function governance(op: string) {
        const c = caller(
          op.startsWith("accept") ? [m.adminTransfer?.to ?? m.admin] : op.startsWith("activate") ? actors : [m.admin],
        );
        const isAdmin = c === m.admin;
        const at = m.time + 1n;
        if (op === "proposeResolver" || op === "proposeGuardian") {
          const who = r.chance(0.7) ? addr(op === "proposeResolver" ? "resolver2" : "guardian2") : r.pick(actors);
          const p = { who, at: at + CFG.adminDelay, since: at };
          await step(op, c, escrow, E(op, [who]), isAdmin, () =>
            op === "proposeResolver" ? (m.pendingResolver = p) : (m.pendingGuardian = p),
          );
        } else if (op === "cancelResolverProposal" || op === "cancelGuardianProposal") {
          const pending = op === "cancelResolverProposal" ? m.pendingResolver : m.pendingGuardian;
          await step(op, c, escrow, E(op, []), isAdmin && !!pending, () =>
            op === "cancelResolverProposal" ? (m.pendingResolver = null) : (m.pendingGuardian = null),
          );
        } else if (op === "activateResolver" || op === "activateGuardian") {
          const pending = op === "activateResolver" ? m.pendingResolver : m.pendingGuardian;
          await step(op, c, escrow, E(op, []), !!pending && at >= pending.at, () => {
            if (op === "activateResolver") {
              m.resolvers.add(pending!.who);
              m.pendingResolver = null;
            } else {
              m.guardians.add(pending!.who);
              m.pendingGuardian = null;
            }
          });
        } else if (op === "revokeResolver") {
          const who = m.resolvers.size && r.chance(0.8) ? r.pick([...m.resolvers]) : r.pick(actors);
          await step(op, c, escrow, E("revokeRole", [RESOLVER_ROLE, who]), isAdmin, () => m.resolvers.delete(who));
        } else if (op === "beginDefaultAdminTransfer") {
          const to = r.chance(0.8) ? (m.admin === addr("admin1") ? addr("admin2") : addr("admin1")) : r.pick(actors);
          await step(
            op,
            c,
            escrow,
            E(op, [to]),
            isAdmin,
            () => (m.adminTransfer = { to, schedule: at + CFG.adminDelay, since: at }),
          );
        } else if (op === "cancelDefaultAdminTransfer") {
          await step(op, c, escrow, E(op, []), isAdmin, () => (m.adminTransfer = null));
        } else if (op === "acceptDefaultAdminTransfer") {
          m.time = at;
          const allowed = m.allowedAcceptAdmin(c);
          m.time = at - 1n;
          await step(op, c, escrow, E(op, []), allowed, () => m.applyAcceptAdmin());
        }
      }

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

const OPS: readonly string[] = Object.entries({
  fund: 8,
  fundUntil: 10,
  fundUntilWithPermit: 8,
  releaseSigned: 8,
  proposeRelease: 10,
  executeRelease: 10,
  cancelRelease: 3,
  pause: 2,
  unpause: 3,
  refund: 4,
  reclaim: 4,
  selfRefund: 7,
  withdraw: 4,
  sweep: 2,
  transfer: 3,
  blacklist: 2,
  unblacklist: 3,
  timeJump: 8,
  proposeResolver: 1,
  cancelResolverProposal: 1,
  activateResolver: 2,
  revokeResolver: 0.5,
  proposeGuardian: 1,
  cancelGuardianProposal: 1,
  activateGuardian: 1,
  beginDefaultAdminTransfer: 1,
  cancelDefaultAdminTransfer: 1,
  acceptDefaultAdminTransfer: 2,
}).flatMap(([op, w]) => Array<string>(Math.round(w * 2)).fill(op));
