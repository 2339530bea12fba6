import { createRoute, z } from "@hono/zod-openapi";
import { errors, jsonBody, jsonResponse } from "../../http/openapi";
import { AttachDepositRequest, AttachDepositResponse, EscrowAttestation, MissionEscrowView, TreasuryResponse } from "./escrow.schemas";

const MissionParam = z.object({ id: z.string().openapi({ param: { name: "id", in: "path" }, example: "mis_01J..." }) });

export const attachDepositRoute = createRoute({
  method: "post",
  path: "/missions/{id}/escrow",
  tags: ["escrow"],
  summary: "Attach the on-chain funding transaction of a base-rail mission (creator)",
  description:
    "Verifies the MissionEscrow Funded log (contract, mission key, token, amount ≥ reward, spam fee, receipt status). " +
    "200: confirmed, the mission is open. 202: in a block but not deep enough yet; the watcher opens the mission at the confirmation depth. " +
    "A transaction log already used by another mission answers 409; a wrong token or short amount 422 (the deposit is refunded).",
  security: [{ bearer: [] }],
  request: { params: MissionParam, ...jsonBody(AttachDepositRequest) },
  responses: {
    200: jsonResponse(AttachDepositResponse, "Deposit confirmed; the mission is open"),
    202: jsonResponse(AttachDepositResponse, "Deposit recorded; waiting for the confirmation depth"),
    ...errors("INVALID_PARAMETER", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "UNPROCESSABLE", "SERVICE_UNAVAILABLE"),
  },
});

export const getEscrowRoute = createRoute({
  method: "get",
  path: "/missions/{id}/escrow",
  tags: ["escrow"],
  summary: "How and where a mission's reward is escrowed: on Base (terms, deposit, payout transaction) or on the ledger (escrow account and hash chain)",
  request: { params: MissionParam },
  responses: { 200: jsonResponse(MissionEscrowView, "Escrow terms and state"), ...errors("NOT_FOUND") },
});

export const escrowAttestationRoute = createRoute({
  method: "get",
  path: "/escrow/attestation",
  tags: ["escrow"],
  summary: "Signed attestation of the ledger rail's escrow: per-asset total and hash-chain heads digest (AIP-1 §6 provable balance)",
  responses: { 200: jsonResponse(EscrowAttestation, "The signed attestation"), ...errors() },
});

export const treasuryRoute = createRoute({
  method: "get",
  path: "/treasury",
  tags: ["admin"],
  summary: "Operator view: resolver gas balance, escrowed totals per asset, pending settlements (admin token)",
  security: [{ bearer: [] }],
  responses: { 200: jsonResponse(TreasuryResponse, "Treasury and settlement state"), ...errors("UNAUTHORIZED", "FORBIDDEN") },
});
