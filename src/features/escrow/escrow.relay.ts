import { getAddress } from "viem";
import type { Reason } from "../../lib/error-reasons";
import { AppError } from "../../lib/errors";
import { agentOf, type Ctx } from "../../lib/context";
import { findVisibleMission } from "../../db/mission-visibility";
import { attachDeposit } from "./escrow.service";

// Funding by authorization (docs/payments.md "Funding a base-rail mission by authorization"): the
// creator signs an EIP-3009 ReceiveWithAuthorization to the escrow (contract v4), whose nonce binds
// the mission's terms; the server's relayer sends `fundWithAuthorization` and the deposit is
// attached like any other. The creator needs neither gas nor an approve; the token spends the
// authorization once, and the slot is funded once.

/** Reverts that say the authorization or the slot is already spent: 409, not 422. */
export const FUNDING_SPENT = ["AlreadyFunded", "AuthorizationUsedAlready"] as const satisfies Reason<"CONFLICT">[];
/**
 * The escrow's other refusals of `fundWithAuthorization` (contract v4) and the token's EIP-3009
 * ones, by their error names: 422.
 */
export const FUNDING_REFUSED = [
  "AuthorizationExpired",
  "AuthorizationNotYetValid",
  "BadAuthorization",
  "BadRefundAfter",
  "BadSignedOnlyUntil",
  "CapExceeded",
  "EnforcedPause",
  "InvalidAuthorizationSignature",
  "UnsupportedToken",
  "ZeroAmount",
] as const satisfies Reason<"UNPROCESSABLE">[];
const named = <T extends string>(names: readonly T[], revert: string): revert is T => names.some((n) => n === revert);

export interface FundingAuthorizationInput {
  missionId: string;
  validAfter: string;
  validBefore: string;
  salt: string;
  signature: string;
}

/**
 * POST /missions/{id}/escrow/authorization (the creator). Simulated first: a refused authorization
 * (expired, bad signature, spent, a pending governance change) costs the relayer nothing and
 * answers with the contract's or the token's error name as `details.reason`.
 */
export async function relayFunding(ctx: Ctx, input: FundingAuthorizationInput) {
  const caller = agentOf(ctx);
  const m = await findVisibleMission(ctx, input.missionId, caller);
  if (m.rewardChain !== "base" || !m.escrow)
    throw new AppError("UNPROCESSABLE", "this mission is not on the base rail: nothing to escrow on chain", {
      reason: "not_base_rail",
    });
  if (m.creator !== caller) throw new AppError("FORBIDDEN", "only the mission's creator funds it by authorization");
  const chain = ctx.deps.chain;
  const relayer = chain?.relayer;
  if (!chain || !relayer)
    throw new AppError("UNPROCESSABLE", "this server relays no funding authorizations (no relayer key)", {
      reason: "relayer_not_configured",
    });
  const e = m.escrow;
  if (chain.versionOf(e.contract) !== "4" || e.refund_after === undefined)
    throw new AppError("UNPROCESSABLE", "the mission's escrow contract has no fundWithAuthorization (contract v4)", {
      reason: "contract_without_authorization_funding",
    });
  const sent = await relayer.fundWithAuthorization({
    escrow: getAddress(e.contract),
    missionKey: e.mission_key,
    token: getAddress(e.token),
    amount: BigInt(m.rewardAmount),
    spamFee: BigInt(m.spamFee),
    refundAfter: BigInt(e.refund_after),
    signedOnlyUntil: BigInt(e.signed_only_until ?? 0),
    from: getAddress(caller),
    validAfter: BigInt(input.validAfter),
    validBefore: BigInt(input.validBefore),
    salt: input.salt,
    signature: input.signature,
  });
  if (!sent.ok) {
    // The revert's name is the reason (docs/api.md "Errors"); a revert outside the vocabulary (a
    // token's revert string) is "reverted", its text in the message.
    const message = `the escrow refused the authorization (${sent.revert})`;
    if (named(FUNDING_SPENT, sent.revert)) throw new AppError("CONFLICT", message, { reason: sent.revert });
    throw new AppError("UNPROCESSABLE", message, {
      reason: named(FUNDING_REFUSED, sent.revert) ? sent.revert : "reverted",
    });
  }
  if (sent.status !== "success")
    throw new AppError("UNPROCESSABLE", "the funding transaction reverted", {
      reason: "reverted",
      tx_hash: sent.txHash,
    });
  return attachDeposit(ctx, { missionId: m.id, txHash: sent.txHash });
}
