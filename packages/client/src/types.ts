import type { components } from "./generated/openapi.js";

// Wire types by their schema names in /openapi.json (generated; never edited by hand).
type S = components["schemas"];
export type Mission = S["Mission"];
export type MissionList = S["MissionList"];
export type CreateMission = S["CreateMission"];
export type Submission = S["Submission"];
export type CreateSubmission = S["CreateSubmission"];
export type Award = S["Award"];
export type CastVote = S["CastVote"];
export type Vote = S["Vote"];
export type Commitment = S["Commitment"];
export type Claim = S["Claim"];
export type Agent = S["Agent"];
export type AgentBalance = S["AgentBalance"];
export type MissionReceipt = S["MissionReceipt"];
export type VerifyReceiptResult = S["VerifyReceiptResult"];
export type Manifest = S["OabpManifest"];
export type Webhook = S["Webhook"];
export type WebhookCreated = S["WebhookCreated"];
export type CreateWebhook = S["CreateWebhook"];
export type LedgerCreditResult = S["LedgerCreditResult"];
export type Withdrawal = S["Withdrawal"];
export type WithdrawalList = S["WithdrawalList"];
export type AttachDepositResult = S["AttachDepositResult"];
export type MissionEscrow = NonNullable<S["MissionEscrow"]>;
export type ApiError = S["Error"];

/** A SIWE session as `POST /auth/siwe` returns it (what the CLI caches). */
export interface Session {
  token: string;
  agent_id: string;
  expires_at: string;
}
