import type { ChainCtx } from "../../lib/context";
import type { Heads } from "../../lib/base-chain";
import type { PayoutRow } from "../../db/rows";
import { sendNew, resend } from "./payouts.send";
import { watchBroadcast, watchConfirmed } from "./payouts.watch";

// The settlement worker (docs/design.md "Escrow and settlement"): sends each queued payout with the
// resolver key and walks it through a crash-safe state machine,
//   queued → broadcast → confirmed → final,  pending_gas (resolver ETH short),  failed (reason).
// A release without the funder's signature takes the delayed path (payouts.paths.ts): the same
// machine runs twice, step propose (its confirmation moves the row back to queued, step execute,
// executable_at set) then step execute; each transaction is stored before it is sent.
// Crash safety: a transaction is signed and stored (raw bytes, hash, nonce) in the same database
// transaction that moves the payout to `broadcast`, and only sent after that commits. A crash
// before the send leaves a stored transaction that the next tick re-sends — the same bytes, so
// the same hash — never a second signature for new work. Nonces come from one locked row per
// (chain, resolver). Never paying twice: one payout row per deposit, the state machine, a
// pre-flight check for an earlier payout already on chain, and the contract's once-per-key rule.

/** One payout step's context: the dependencies, the step's instant, and the chain port. */

export async function stepPayout(
  ctx: ChainCtx,
  { payout: p, heads }: { payout: PayoutRow; heads: Heads },
): Promise<void> {
  switch (p.state) {
    case "queued":
    case "pending_gas":
      return p.rawTx ? resend(ctx, p) : sendNew(ctx, p);
    case "broadcast":
      return watchBroadcast(ctx, { payout: p, heads });
    case "confirmed":
      return watchConfirmed(ctx, { payout: p, heads });
    default:
      return; // final, failed: nothing to do
  }
}
