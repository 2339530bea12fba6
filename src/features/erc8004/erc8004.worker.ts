import { and, asc, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import type { Hex } from "viem";
import type { Tx } from "../../db/client";
import { erc8004Feedback, erc8004Identities } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { Erc8004Config } from "../../env";
import { RpcUnavailableError, type BaseChain, type Heads } from "../../lib/base-chain";
import { ctxForJob } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { allocateNonce, backoffMs, firstPrice } from "../payouts";
import { chainHeads } from "../rail";
import { receiptPath } from "../../lib/receipt-path";
import { getReceipt } from "../receipts";
import { reporterChain, type Call, type Mined, type ReporterChain } from "./erc8004.chain";

// The settlement worker's ERC-8004 pass (docs/erc-8004.md "Exactly once"), with the discipline of
// a withdrawal (withdrawals.worker.ts): each write of the reporter key is signed with a nonce from
// its own `chain_accounts` row and stored (raw bytes, hash, nonce) in the commit that marks the row
// `broadcast`, and sent only after it; a crash re-sends the same bytes, so one nonce, one
// transaction, one entry. Every state change is conditional on the state and hash as read.
//   1. the server's registration in the identity registry (once per chain and registry);
//   2. an intent row per paid (mission, winner) whose winner opted in;
//   3. those rows: queued → broadcast → confirmed (or failed: refused, reverted, nonce taken).

const BATCH = 20;
/** Gas caps (docs/erc-8004.md "Gas"): an estimate above them is refused, never sent. */
const REGISTER_GAS_CAP = 600_000n;
const FEEDBACK_GAS_CAP = 400_000n;
/** A write the chain keeps refusing (gas money, a paused registry) waits this long, then fails. */
const REFUSED_FOR_MS = 24 * 3600_000;

type Fields = Partial<typeof erc8004Feedback.$inferInsert & typeof erc8004Identities.$inferInsert>;
interface WriteRow {
  state: string;
  txHash: string | null;
  rawTx: string | null;
  nonce: number | null;
  retries: number;
  createdAt: Date;
}
/** One row of either table: how to lock and update it, what it sends, what it keeps once mined. */
interface Target<R extends WriteRow> {
  row: R;
  gasCap: bigint;
  lock(tx: Tx): Promise<WriteRow | undefined>;
  update(tx: Tx, values: Fields): Promise<unknown>;
  /** The call to sign, or the reason it must never be sent. */
  call(): Promise<Call | { refused: string }>;
  mined(m: Mined): Fields;
}
interface Step {
  deps: Deps;
  chain: ReporterChain;
  /** The base rail's reads (heads, fees). */
  rail: BaseChain;
  now: Date;
  heads: Heads;
}

const reporters = new WeakMap<Deps, ReporterChain>();
function reporterOf(deps: Deps, cfg: Erc8004Config): ReporterChain | null {
  const rail = deps.config.baseRail;
  if (!rail) return null;
  let r = reporters.get(deps);
  if (!r) reporters.set(deps, (r = reporterChain(rail, cfg)));
  return r;
}

/** One pass; a no-op unless the base rail and the three ERC-8004 settings are configured. */
export async function runErc8004(deps: Deps): Promise<number> {
  const cfg = deps.config.erc8004;
  const chain = cfg ? reporterOf(deps, cfg) : null;
  if (!cfg || !chain || !deps.chain) return 0;
  const heads = await chainHeads(deps, deps.chain).catch((err: unknown) => {
    if (err instanceof RpcUnavailableError) return null; // nothing moves; the next tick retries
    throw err;
  });
  if (!heads) return 0;
  const s: Step = { deps, chain, rail: deps.chain, now: deps.clock.now(), heads };
  try {
    let stepped = await registration(s, cfg);
    await enqueueFeedback(s, cfg);
    stepped += await feedbackPass(s);
    return stepped;
  } catch (err) {
    if (err instanceof RpcUnavailableError) return 0;
    throw err;
  }
}

const later = (deps: Deps, r: WriteRow) =>
  new Date(deps.clock.now().getTime() + backoffMs(r.retries, deps.config.baseRail?.pollMs ?? 4_000));

/**
 * Moves the row from the state and hash as read to `values` (and runs `extra` in the same
 * transaction); false when it moved meanwhile (another process, or a restart's replay).
 */
async function move<R extends WriteRow>(deps: Deps, t: Target<R>, values: Fields, extra?: (tx: Tx) => Promise<void>) {
  return deps.database.db.transaction(async (tx) => {
    const cur = await t.lock(tx);
    if (!cur || cur.state !== t.row.state || cur.txHash !== t.row.txHash) return false;
    await t.update(tx, { ...values, updatedAt: deps.clock.now() });
    if (extra) await extra(tx);
    return true;
  });
}

/** Moves a row one step; an RPC outage or an unexpected error is a retry with backoff. */
async function step<R extends WriteRow>(s: Step, t: Target<R>): Promise<boolean> {
  try {
    await (t.row.state === "queued" ? sendNew : watch)(s, t);
    return true;
  } catch (err) {
    if (!(err instanceof RpcUnavailableError)) s.deps.logger.error({ err }, "erc8004 write step failed");
    await move(s.deps, t, { retries: t.row.retries + 1, nextCheckAt: later(s.deps, t.row) });
    if (err instanceof RpcUnavailableError) throw err;
    return false;
  }
}

const fail = <R extends WriteRow>(s: Step, t: Target<R>, reason: string) =>
  move(s.deps, t, { state: "failed", reason, nextCheckAt: null });

async function sendNew<R extends WriteRow>(s: Step, t: Target<R>): Promise<void> {
  const { deps, chain, now } = s;
  const call = await t.call();
  if ("refused" in call) return void (await fail(s, t, call.refused));
  const est = await chain.estimate(call);
  if (est.ok && est.gas > t.gasCap) return void (await fail(s, t, `gas_cap:${est.gas}`));
  if (!est.ok) {
    // The reference registry's own refusals never change: fail at once; anything else may (gas money).
    if (/Self-feedback|ERC721NonexistentToken|bad identity/.test(est.revert))
      return void (await fail(s, t, `refused:${est.revert}`));
    if (now.getTime() - t.row.createdAt.getTime() >= REFUSED_FOR_MS)
      return void (await fail(s, t, `refused:${est.revert}`));
    await move(deps, t, {
      reason: `waiting:${est.revert}`,
      retries: t.row.retries + 1,
      nextCheckAt: later(deps, t.row),
    });
    return;
  }
  const price = firstPrice(await s.rail.fees());
  const chainNonce = await chain.pendingNonce();
  let signed: { raw: Hex; hash: string } | undefined;
  const ok = await move(deps, t, {}, async (tx) => {
    const nonce = await allocateNonce({ tx, now }, { chain, chainNonce });
    signed = await chain.sign(call, { nonce, gas: est.gas, ...price });
    await t.update(tx, {
      state: "broadcast",
      reason: null,
      nonce,
      txHash: signed.hash,
      rawTx: signed.raw,
      retries: 0,
      nextCheckAt: now,
    });
  });
  // Committed: now it may leave. Whatever happens from here, the stored bytes are re-sent.
  if (ok && signed) await chain.sendRaw(signed.raw);
}

/** A broadcast write: mined (confirmed at depth, or failed if reverted), else its stored bytes again. */
async function watch<R extends WriteRow>(s: Step, t: Target<R>): Promise<void> {
  const { deps, chain, heads } = s;
  const { txHash, rawTx, nonce } = t.row;
  if (!txHash || !rawTx) throw new Error("an ERC-8004 write is broadcast without a transaction");
  const mined = await chain.receipt(txHash);
  if (mined?.status === "reverted") return void (await fail(s, t, `reverted:${txHash}`));
  if (mined && mined.blockNumber <= heads.confirmed) {
    await move(deps, t, {
      state: "confirmed",
      reason: null,
      blockNumber: mined.blockNumber,
      nextCheckAt: null,
      ...t.mined(mined),
    });
    return;
  }
  if (mined) return void (await move(deps, t, { nextCheckAt: later(deps, t.row), retries: t.row.retries + 1 }));
  // Not mined: the same bytes again (a crash before the send, a dropped transaction).
  const sent = await chain.sendRaw(rawTx as Hex);
  if (sent === "nonce_too_low" && nonce !== null && (await chain.minedNonce()) > nonce) {
    // Its nonce is spent and its own receipt absent: another transaction took the nonce.
    if (!(await chain.receipt(txHash))) return void (await fail(s, t, "nonce_consumed"));
  }
  await move(deps, t, {
    reason: sent === "sent" || sent === "known" ? null : `resend:${sent}`,
    nextCheckAt: later(deps, t.row),
  });
}

type IdentityRow = typeof erc8004Identities.$inferSelect;
type FeedbackRow = typeof erc8004Feedback.$inferSelect;

/** The registration file the server's identity points to (docs/erc-8004.md "Turning it on"). */
const agentUriOf = (publicUrl: string) => `${publicUrl}/.well-known/agent-registration.json`;

/** Step 1: the server registers itself once per (chain, identity registry); 1 when it stepped. */
async function registration(s: Step, cfg: Erc8004Config): Promise<number> {
  const { deps, chain, now } = s;
  const key = and(eq(erc8004Identities.chainId, chain.chainId), eq(erc8004Identities.registry, cfg.identityRegistry));
  const agentUri = agentUriOf(deps.config.publicUrl);
  await deps.database.db
    .insert(erc8004Identities)
    .values({
      chainId: chain.chainId,
      registry: cfg.identityRegistry,
      reporter: chain.resolver,
      agentUri,
      state: "queued",
      nextCheckAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  const [row] = await deps.database.db.select().from(erc8004Identities).where(key);
  if (!row || row.nextCheckAt === null || row.nextCheckAt > now) return 0;
  const target: Target<IdentityRow> = {
    row,
    gasCap: REGISTER_GAS_CAP,
    lock: async (tx) => (await tx.select().from(erc8004Identities).where(key).for("update"))[0],
    update: (tx, values) => tx.update(erc8004Identities).set(values).where(key),
    call: async () => chain.register(row.agentUri),
    mined: (m) => (m.agentId === null ? {} : { agentId: m.agentId.toString() }),
  };
  return (await step(s, target)) ? 1 : 0;
}

/**
 * Step 2: an intent row per paid (mission, winner) whose winner opted in before the release was
 * final. Paid = the base-rail release is final (docs/erc-8004.md "Feedback"); the proof is its
 * transaction and the signed receipt. Bounded: at most BATCH new rows a pass.
 */
async function enqueueFeedback(s: Step, cfg: Erc8004Config): Promise<void> {
  const { deps, chain, now } = s;
  const result = await deps.database.db.execute(sql`
    select m.id as mission_id, a.id as agent_id, p->>'submission_id' as submission_id,
           a.erc8004_agent_id::text as erc8004_agent_id, coalesce(cp.mined_tx_hash, cp.tx_hash) as release_tx
    from chain_payouts cp
    join missions m on m.id = cp.mission_id
    cross join lateral jsonb_array_elements(coalesce(m.payouts, '[]'::jsonb)) p
    join agents a on a.id = p->>'agent_id'
    where cp.kind = 'release' and cp.state = 'final' and cp.chain_id = ${chain.chainId}
      and a.erc8004_agent_id is not null and cp.final_at >= a.erc8004_opted_at
      and not exists (select 1 from erc8004_feedback f where f.mission_id = m.id and f.agent_id = a.id)
    order by cp.final_at, m.id
    limit ${BATCH}`);
  for (const r of rowsOf<Paid>(result)) {
    const proof = await receiptProof(deps, r.mission_id, r.submission_id);
    await deps.database.db
      .insert(erc8004Feedback)
      .values({
        missionId: r.mission_id,
        agentId: r.agent_id,
        erc8004AgentId: r.erc8004_agent_id,
        chainId: chain.chainId,
        registry: cfg.reputationRegistry,
        releaseTx: r.release_tx,
        feedbackUri: `${deps.config.publicUrl}${receiptPath(r.mission_id, r.submission_id)}`,
        feedbackHash: proof ?? `0x${"0".repeat(64)}`,
        ...(proof ? { state: "queued", nextCheckAt: now } : { state: "failed", reason: "no_receipt" }),
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
  }
}

interface Paid {
  mission_id: string;
  agent_id: string;
  submission_id: string;
  erc8004_agent_id: string;
  release_tx: string;
}
/** postgres.js answers an array, PGlite `{ rows }`. */
const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? r : ((r as { rows?: T[] }).rows ?? [])) as T[];

/** The signed receipt's digest as bytes32 (the feedbackHash), or null when no receipt is served. */
async function receiptProof(deps: Deps, missionId: string, submissionId: string): Promise<Hex | null> {
  try {
    const receipt = await getReceipt(ctxForJob(deps), { missionId, submissionId });
    const hex = /^sha256:([0-9a-f]{64})$/.exec(receipt.digest)?.[1];
    return hex ? `0x${hex}` : null;
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}

/** Step 3: the due feedback rows, one step each. */
async function feedbackPass(s: Step): Promise<number> {
  const { deps, chain, now } = s;
  const due = await deps.database.db
    .select()
    .from(erc8004Feedback)
    .where(
      and(
        eq(erc8004Feedback.chainId, chain.chainId),
        inArray(erc8004Feedback.state, ["queued", "broadcast"]),
        isNotNull(erc8004Feedback.nextCheckAt),
        lte(erc8004Feedback.nextCheckAt, now),
      ),
    )
    .orderBy(asc(erc8004Feedback.nextCheckAt))
    .limit(BATCH);
  let stepped = 0;
  for (const row of due) if (await step(s, feedbackTarget(s, row))) stepped++;
  return stepped;
}

function feedbackTarget(s: Step, row: FeedbackRow): Target<FeedbackRow> {
  const { deps, chain } = s;
  const key = and(eq(erc8004Feedback.missionId, row.missionId), eq(erc8004Feedback.agentId, row.agentId));
  return {
    row,
    gasCap: FEEDBACK_GAS_CAP,
    lock: async (tx) => (await tx.select().from(erc8004Feedback).where(key).for("update"))[0],
    update: (tx, values) => tx.update(erc8004Feedback).set(values).where(key),
    async call() {
      const agentId = BigInt(row.erc8004AgentId);
      // Registered, and the winner's own: its owner or its agentWallet is the winner's address.
      const holders = await chain.holders(agentId);
      if (!holders) return { refused: "not_registered" };
      if (holders.owner !== row.agentId && holders.wallet !== row.agentId) return { refused: "not_agent_owner" };
      return chain.giveFeedback({
        agentId,
        tag2: row.releaseTx,
        endpoint: deps.config.publicUrl,
        uri: row.feedbackUri,
        hash: row.feedbackHash as Hex,
      });
    },
    mined: (m) => (m.feedbackIndex === null ? {} : { feedbackIndex: m.feedbackIndex }),
  };
}
