// The public surface of the receipts feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { settlementReceipt } from "./receipts.aip3";
export { getReceiptOp, receiptsRouter } from "./receipts.index";
export { MissionReceipt } from "./receipts.schemas";
export { getReceipt, verifyReceiptFor } from "./receipts.service";
export { verifyReceipt } from "./receipts.verify";
export type { ReceiptVerification } from "./receipts.verify";
