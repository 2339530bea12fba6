import { createRoute, z } from "@hono/zod-openapi";
import { bearer, routes, signedIn } from "../../http/route";
import { requireCaller } from "../../http/identity";
import { errors, jsonBody, jsonResponse } from "../../http/openapi";
import { FUNDING_REFUSED, FUNDING_SPENT } from "./escrow.relay";
import {
  AttachDepositRequest,
  AttachDepositResponse,
  EscrowAttestation,
  FundingAuthorizationRequest,
  MissionEscrowView,
  RELEASE_PATH_FIELDS,
  TreasuryResponse,
} from "./escrow.schemas";

const route = routes("escrow");
const adminRoute = routes("admin");

const MissionParam = z.object({ id: z.string().openapi({ param: { name: "id", in: "path" }, example: "mis_01J..." }) });
const escrow = route.one("/missions/{id}/escrow", MissionParam);

export const attachDepositRoute = escrow.post(
  "Attach the on-chain funding transaction of a base-rail mission (creator)",
  {
    ...signedIn,
    description:
      "Verifies the MissionEscrow Funded log (contract, mission key, token, amount ≥ reward, spam fee, receipt status). " +
      "200: confirmed, the mission is open. 202: in a block but not deep enough yet; the watcher opens the mission at the confirmation depth. " +
      "A transaction log already used by another mission answers 409; a wrong token or short amount 422 (the deposit is refunded).",
    in: { body: AttachDepositRequest },
    ok: [200, AttachDepositResponse, "Deposit confirmed; the mission is open"],
    responses: { 202: jsonResponse(AttachDepositResponse, "Deposit recorded; waiting for the confirmation depth") },
    errors: [
      "INVALID_PARAMETER",
      ["CONFLICT", "deposit_already_used"],
      [
        "UNPROCESSABLE",
        "amount_short",
        "mission_not_pending",
        "no_funded_log",
        "not_base_rail",
        "rail_not_enabled",
        "refund_after_short",
        "spam_fee_short",
        "token_not_allowed",
        "tx_failed",
        "tx_not_found",
        "wrong_contract",
        "wrong_mission_key",
      ],
      ["SERVICE_UNAVAILABLE", "rpc_unavailable"],
    ],
  },
);

export const fundingAuthorizationRoute = route.post(
  "/missions/{id}/escrow/authorization",
  "Fund a base-rail mission from the creator's EIP-3009 authorization, relayed by the server (contract v4; creator)",
  {
    ...signedIn,
    description:
      "The creator signs ReceiveWithAuthorization(from: itself, to: the escrow, value: amount + spam_fee, validAfter, " +
      "validBefore, nonce) on the token, with nonce = the escrow's fundingAuthorizationNonce(mission_key, amount, " +
      "spam_fee, refund_after, signed_only_until, salt) (docs/payments.md). The server's relayer sends " +
      "fundWithAuthorization and attaches the deposit: 200 open, 202 waiting for depth. The creator needs no gas and no " +
      "approve. A spent authorization or an already funded slot answers 409; any other refusal 422 with the contract's " +
      "or token's error name in details.reason.",
    in: { params: MissionParam, body: FundingAuthorizationRequest },
    ok: [200, AttachDepositResponse, "Funded and confirmed; the mission is open"],
    responses: { 202: jsonResponse(AttachDepositResponse, "Funded; waiting for the confirmation depth") },
    errors: [
      "INVALID_PARAMETER",
      "NOT_FOUND",
      ["CONFLICT", ...FUNDING_SPENT, "deposit_already_used"],
      [
        "UNPROCESSABLE",
        ...FUNDING_REFUSED,
        "amount_short",
        "contract_without_authorization_funding",
        "mission_not_pending",
        "no_funded_log",
        "not_base_rail",
        "rail_not_enabled",
        "refund_after_short",
        "relayer_not_configured",
        "reverted",
        "spam_fee_short",
        "token_not_allowed",
        "tx_failed",
        "tx_not_found",
        "wrong_contract",
        "wrong_mission_key",
      ],
      ["SERVICE_UNAVAILABLE", "rpc_unavailable"],
    ],
  },
);

export const getEscrowRoute = escrow.get(
  "How and where a mission's reward is escrowed: on Base (terms, deposit, payout transaction) or on the ledger (escrow account and hash chain)",
  { ok: [200, MissionEscrowView, "Escrow terms and state"] },
);

export const escrowAttestationRoute = route.get(
  "/escrow/attestation",
  "Signed attestation of the ledger rail's escrow: per-asset total and hash-chain heads digest (AIP-1 §6 provable balance)",
  { ok: [200, EscrowAttestation, "The signed attestation"] },
);

const SignedDecision = z
  .object({
    type: z.literal("oabp.payout_decision"),
    payout_id: z.string(),
    mission_id: z.string(),
    kind: z.enum(["release", "refund"]),
    chain_id: z.number().int(),
    escrow: z.string(),
    mission_key: z.string(),
    funder: z.string(),
    token: z.string(),
    recipients: z.array(z.object({ address: z.string(), amount: z.string() })),
    fee: z.string(),
    proposal_hash: z.string().nullable(),
    decided_at: z.string(),
    digest: z.string(),
    signature: z.object({ alg: z.literal("ed25519"), key_id: z.string(), value: z.string() }),
  })
  .openapi("SignedPayoutDecision");

export const missionDecisionsRoute = route
  .one("/missions/{id}/decisions", MissionParam)
  .get(
    "The server's signed payout decisions of a mission (docs/custody.md): ed25519 by a receipt key, verifiable with the manifest's receipt_signing_keys",
    {
      ok: [200, z.object({ mission_id: z.string(), decisions: z.array(SignedDecision) }), "The mission's decisions"],
    },
  );

export const decisionFeedRoute = route.get(
  "/escrow/decisions",
  "Every signed payout decision, oldest first (docs/custody.md): what a guardian's watch compares proposals with",
  {
    in: {
      query: z.object({
        cursor: z.string().max(64).optional().openapi({ description: "next_cursor of the previous page" }),
        limit: z.coerce.number().int().min(1).max(500).default(100),
      }),
    },
    ok: [
      200,
      z.object({ decisions: z.array(SignedDecision), next_cursor: z.string().nullable() }),
      "A page of decisions",
    ],
    errors: ["INVALID_PARAMETER"],
  },
);

export const treasuryRoute = adminRoute.get(
  "/treasury",
  "Operator view: resolver gas balance, escrowed totals per asset, pending settlements (admin token)",
  { ...bearer, ok: [200, TreasuryResponse, "Treasury and settlement state"] },
);

const AdminPayout = z
  .object({
    id: z.string(),
    mission_id: z.string(),
    deposit_id: z.string(),
    kind: z.string(),
    state: z.string(),
    reason: z.string().nullable(),
    asset: z.string(),
    token: z.string(),
    funder: z.string(),
    amount: z.string(),
    fee: z.string(),
    recipients: z.number().int(),
    nonce: z.number().int().nullable(),
    tx_hash: z.string().nullable(),
    attempts: z.number().int(),
    retries: z.number().int(),
    next_check_at: z.string().nullable(),
    ...RELEASE_PATH_FIELDS,
    created_at: z.string(),
    updated_at: z.string(),
    admin_actions: z.array(
      z.object({ action: z.string(), reason: z.string(), from_state: z.string(), at: z.string() }),
    ),
  })
  .openapi("AdminPayout");
const PayoutParam = z.object({
  id: z
    .string()
    .max(64)
    .openapi({ param: { name: "id", in: "path" }, example: "pay_01J..." }),
});
const PayoutAction = z
  .object({ reason: z.string().min(3).max(200).openapi({ description: "Why (kept in the payout's audit trail)" }) })
  .strict()
  .openapi("PayoutAction");

export const listPayoutsRoute = adminRoute.get(
  "/admin/payouts",
  "Base-rail payouts by state, oldest first (admin token)",
  {
    ...bearer,
    in: {
      query: z.object({
        state: z.enum(["queued", "pending_gas", "broadcast", "confirmed", "final", "failed"]).optional(),
        after: z.string().max(64).optional().openapi({ description: "next_after of the previous page" }),
        limit: z.coerce.number().int().min(1).max(100).default(50),
      }),
    },
    responses: {
      200: jsonResponse(
        z.object({ payouts: z.array(AdminPayout), next_after: z.string().nullable() }),
        "A page of payouts",
      ),
    },
    errors: ["INVALID_PARAMETER"],
  },
);

const actionRoute = (action: "retry" | "fail" | "convert", summary: string) =>
  createRoute({
    method: "post",
    path: `/admin/payouts/{id}/${action}`,
    middleware: [requireCaller("admin")],
    tags: ["admin"],
    summary,
    security: [{ bearer: [] }],
    request: { params: PayoutParam, ...jsonBody(PayoutAction) },
    responses: {
      200: jsonResponse(AdminPayout, "The payout after the action"),
      ...errors("INVALID_PARAMETER", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", [
        "CONFLICT",
        "payout_in_flight",
        "payout_state",
        ...(action === "convert" ? (["deposit_missing", "mission_state", "payout_kind"] as const) : []),
      ]),
    },
  });
export const retryPayoutRoute = actionRoute(
  "retry",
  "Send a failed (or waiting) payout through the pre-flight check again now (admin token; audit-logged)",
);
export const failPayoutRoute = actionRoute(
  "fail",
  "Mark a queued or pending_gas payout failed, with a reason (admin token; audit-logged)",
);
export const convertPayoutRoute = actionRoute(
  "convert",
  "Turn a failed, never-mined release into the refund of the deposit to its funder and void the mission, with a reason (admin token; audit-logged)",
);
