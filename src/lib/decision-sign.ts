import { createPublicKey, sign, verify } from "node:crypto";
import { digestOf, signingBytes } from "./canonical-json";
import type { PublicReceiptKey, ReceiptKeyring } from "./receipt-keys";
import { proposalHashOf } from "./release-typed-data";

// Signed payout decisions (docs/custody.md "Signed decisions"): when the server decides what an
// escrow slot pays (a resolution's release, a void's or a rejected deposit's refund), it signs the
// whole plan with its ed25519 receipt key — JCS bytes without `digest` and `signature`, as
// receipts (AIP-1 §6.1) — and publishes it. The key lives in OABP_RECEIPT_KEYS or the data dir's
// key file, never in the database: whoever can only write the database cannot make a decision
// verify. The settlement worker sends only plans a decision covers; the guardian watch
// (src/guardian.ts) alarms on any proposal no decision explains. Pure: no database, no chain.

const DECISION_TYPE = "oabp.payout_decision";

export interface DecisionPlan {
  payout_id: string;
  mission_id: string;
  kind: "release" | "refund";
  chain_id: number;
  /** The contract holding the slot, lower-case. */
  escrow: string;
  mission_key: string;
  funder: string;
  token: string;
  recipients: { address: string; amount: string }[];
  fee: string;
}

export interface SignedDecision extends DecisionPlan {
  type: typeof DECISION_TYPE;
  /** keccak256(abi.encode(recipients, amounts, fee)) of a release: what proposalOf must hold; null for a refund. */
  proposal_hash: string | null;
  decided_at: string;
  digest: string;
  signature: { alg: "ed25519"; key_id: string; value: string };
}

/** The plan in its canonical form: addresses lower-case, amounts base-10 strings. */
function normalisePlan(p: DecisionPlan): DecisionPlan {
  return {
    payout_id: p.payout_id,
    mission_id: p.mission_id,
    kind: p.kind,
    chain_id: p.chain_id,
    escrow: p.escrow.toLowerCase(),
    mission_key: p.mission_key.toLowerCase(),
    funder: p.funder.toLowerCase(),
    token: p.token.toLowerCase(),
    recipients: p.recipients.map((r) => ({ address: r.address.toLowerCase(), amount: BigInt(r.amount).toString() })),
    fee: BigInt(p.fee).toString(),
  };
}

/** The hash a delayed proposal of this plan carries on chain (release-typed-data.ts). */
const planProposalHash = (p: Pick<DecisionPlan, "recipients" | "fee">): string =>
  proposalHashOf({
    recipients: p.recipients.map((r) => r.address),
    amounts: p.recipients.map((r) => BigInt(r.amount)),
    fee: BigInt(p.fee),
  });

export function signDecision(plan: DecisionPlan, keyring: ReceiptKeyring, at: Date): SignedDecision {
  const p = normalisePlan(plan);
  const unsigned = {
    type: DECISION_TYPE,
    ...p,
    proposal_hash: p.kind === "release" ? planProposalHash(p) : null,
    decided_at: at.toISOString(),
  };
  const bytes = signingBytes(unsigned);
  const value = sign(null, bytes, keyring.active.privateKey).toString("base64url");
  return {
    ...unsigned,
    type: DECISION_TYPE,
    digest: digestOf(bytes),
    signature: { alg: "ed25519", key_id: keyring.active.keyId, value },
  };
}

const DECISION_REASONS = {
  missing: "decision_missing",
  malformed: "decision_malformed",
  unknownKey: "decision_unknown_key",
  badSignature: "decision_bad_signature",
  planMismatch: "decision_plan_mismatch",
} as const;
type DecisionReason = (typeof DECISION_REASONS)[keyof typeof DECISION_REASONS];

export type DecisionCheck = { ok: true; decision: SignedDecision } | { ok: false; reason: DecisionReason };

const rawKey = (x: string) => createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x }, format: "jwk" });

/**
 * Does `doc` carry a valid signature by one of `keys` (the public keys this process is configured
 * with, never keys read from the database)? With `plan`, the signed plan must also be exactly it.
 */
export function checkDecision(
  doc: unknown,
  keys: Pick<PublicReceiptKey, "key_id" | "public_key">[],
  plan?: DecisionPlan,
): DecisionCheck {
  if (doc === null || doc === undefined) return { ok: false, reason: DECISION_REASONS.missing };
  const d = doc as Partial<SignedDecision>;
  if (d.type !== DECISION_TYPE || typeof d.signature?.value !== "string" || !Array.isArray(d.recipients))
    return { ok: false, reason: DECISION_REASONS.malformed };
  const key = keys.find((k) => k.key_id === d.signature?.key_id);
  if (!key) return { ok: false, reason: DECISION_REASONS.unknownKey };
  const { digest: _digest, signature, ...unsigned } = d;
  const bytes = signingBytes(unsigned);
  let good = false;
  try {
    good = verify(null, bytes, rawKey(key.public_key), Buffer.from(signature!.value, "base64url"));
  } catch {
    good = false;
  }
  if (!good) return { ok: false, reason: DECISION_REASONS.badSignature };
  const signed = d as SignedDecision;
  if (signed.kind === "release" && signed.proposal_hash !== planProposalHash(signed))
    return { ok: false, reason: DECISION_REASONS.malformed };
  if (plan && !samePlan(signed, plan)) return { ok: false, reason: DECISION_REASONS.planMismatch };
  return { ok: true, decision: signed };
}

/** Every field of the plan, recipients in order. */
function samePlan(a: DecisionPlan, b: DecisionPlan): boolean {
  const x = normalisePlan(a);
  const y = normalisePlan(b);
  return (
    x.payout_id === y.payout_id &&
    x.mission_id === y.mission_id &&
    x.kind === y.kind &&
    x.chain_id === y.chain_id &&
    x.escrow === y.escrow &&
    x.mission_key === y.mission_key &&
    x.funder === y.funder &&
    x.token === y.token &&
    x.fee === y.fee &&
    x.recipients.length === y.recipients.length &&
    x.recipients.every((r, i) => {
      const other = y.recipients[i];
      return other !== undefined && r.address === other.address && r.amount === other.amount;
    })
  );
}
