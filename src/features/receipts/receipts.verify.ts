// The §6.1 verification procedure with nothing but the receipt and the issuer's manifest. One copy
// serves the server and the client: it lives in the client package, which bundles it, and the
// server imports it from there (docs/architecture.md "Shared with the client").
export { SETTLEMENT_STATUSES, VERIFICATION_RESULTS, verifyReceipt } from "../../../packages/client/src/receipts";
export type { ReceiptVerification } from "../../../packages/client/src/receipts";
