// @oabp/client: a typed client for OABP (AIP-1) servers. See docs/first-mission.md.
export { OabpClient, pages, type OabpClientOptions, type TokenStore } from "./client.js";
export { OabpError, errorFromBody, exitCodeFor, EXIT, type ServerErrorCode } from "./errors.js";
export { loadAccount, decryptKeystore, encryptKeystore, type KeySource } from "./account.js";
export {
  verifyReceipt,
  signingBytes,
  digestOf,
  RECEIPT_REASONS,
  type ReceiptVerification,
  type ReceiptExpectations,
} from "./receipts.js";
export { verifyWebhook, type WebhookVerification, type WebhookEvent } from "./webhooks.js";
export { followMission, followSearch, isSettled, type FollowOptions } from "./follow.js";
export { fundMission, type FundOptions, type FundProgress } from "./fund.js";
export { contentHash, commitmentOf, sha256Hex } from "./content.js";
export { McpBridge, type McpBridgeOptions } from "./mcp/bridge.js";
export type * from "./types.js";
export type { paths, components } from "./generated/openapi.js";
export {
  fundSlot,
  prepareFund,
  sendPrepared,
  permitDomain,
  escrowVersion,
  refundAfterSeconds,
  escrowFundAbi,
  type EscrowSlotTerms,
  type FundSlotOptions,
  type FundSlotResult,
  type FundStep,
  type PermitMode,
  type PreparedFund,
} from "./escrow-fund.js";
export { gasWithHeadroom, GAS_HEADROOM } from "./gas.js";
export { awardMission } from "./award-sign.js";
export {
  signReleases,
  releaseTypedData,
  type ReleaseToSign,
  type ReleaseTypedDataAnswer,
  type TypedDataSigner,
} from "./release-sign.js";
export { topUpMission, type TopUpAmendment, type TopUpOptions, type TopUpProgress } from "./top-up.js";
export { formatAmount, parseAmount, wholeUnits, type AssetUnits, type ParsedAmount } from "./amounts.js";
