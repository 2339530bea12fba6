// Gas for escrow deposits (docs/base-rail.md "Funding from the tools"): the one rule every tool of the
// project applies — the library, the `oabp` CLI and the web board's script import this module.
//
// Why not the node's exact estimate: a deposit estimated while the escrow already held the token
// rewrites a non-zero storage slot (held[token], the escrow's token balance); included after the
// last other slot left, the same call writes zero → non-zero, ~17,000 gas more per slot. Measured
// on anvil: estimate 150,734, needed 184,934 — the exact estimate runs out of gas.

/** Multiplier (numerator over 100) and fixed margin added to a node's estimate. */
export const GAS_HEADROOM = { percent: 125n, extra: 40_000n } as const;

/** `estimate × 1.25 + 40,000`, never above the block gas limit (when known). */
export function gasWithHeadroom(estimate: bigint, blockGasLimit?: bigint): bigint {
  const padded = (estimate * GAS_HEADROOM.percent) / 100n + GAS_HEADROOM.extra;
  return blockGasLimit !== undefined && blockGasLimit > 0n && padded > blockGasLimit ? blockGasLimit : padded;
}
