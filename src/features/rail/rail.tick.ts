import type { Heads } from "../../lib/base-chain";

/** One bounded worker tick: the heads read at its start, and its time budget (performance.now() ms). */
export interface Tick {
  heads: Heads;
  started: number;
  budgetMs: number;
}
