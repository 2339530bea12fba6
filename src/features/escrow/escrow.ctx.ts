import type { Tx } from "../../db/client";
import type { BaseChain, Heads } from "../../lib/base-chain";
import type { Ctx } from "../../lib/context";

/**
 * What the escrow's writes receive first (docs/architecture.md "The verb and its context"): the
 * verb's dependencies and instant, inside its transaction — `withTx`'s context satisfies it. A
 * write that needs no dependencies takes `InTx` (queueing a payout needs them: it signs the decision).
 */
export type TxCtx = Pick<Ctx, "deps" | "now"> & { tx: Tx };
export type InTx = Pick<TxCtx, "tx" | "now">;

/** What the chain workers' steps receive: the dependencies, the step's instant, and the chain port. */
export type ChainCtx = Pick<Ctx, "deps" | "now"> & { chain: BaseChain };

/** One bounded worker tick: the heads read at its start, and its time budget (performance.now() ms). */
export interface Tick {
  heads: Heads;
  started: number;
  budgetMs: number;
}
