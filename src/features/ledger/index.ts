// The public surface of the ledger feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { escrowAttestation, missionLedgerEscrow } from "./ledger.attestation";
export {
  EXTERNAL,
  agentAccount,
  balancesOf,
  escrowAccount,
  lockAccounts,
  transfer,
  transferArg,
  treasuryAccount,
  treasuryBalances,
  verifyLedger,
} from "./ledger.service";
export type { AccountKey } from "./ledger.service";
