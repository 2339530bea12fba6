import { getAddress, type Address } from "viem";
import type { Deps } from "../../deps";
import type { AssetConfig } from "../../env";
import type { BaseChain } from "../../lib/base-chain";
import type { Relayer } from "../../lib/relayer";
import { AppError } from "../../lib/errors";
import { MAX_TIMEOUT_SECONDS, type PaymentRequirements } from "./payments.x402";
import { findAsset } from "../../lib/money";

/** Where x402 payments go on this server: the chain, the relayer, the asset's token and the treasury. */
export interface X402Rail {
  chain: BaseChain;
  relayer: Relayer;
  asset: AssetConfig;
  token: Address;
  payTo: Address;
  network: string;
  domain: { name: string; version: string };
}

// The token's EIP-712 domain and the escrow's treasury, read once per chain port.
const cache = new WeakMap<BaseChain, Map<string, Promise<{ name: string; version: string; treasury: string }>>>();

function readOnce(chain: BaseChain, relayer: Relayer, token: Address, configured: string | undefined) {
  const byToken = cache.get(chain) ?? new Map<string, Promise<{ name: string; version: string; treasury: string }>>();
  cache.set(chain, byToken);
  let hit = byToken.get(token);
  if (!hit) {
    hit = Promise.all([relayer.tokenDomain(token), configured ?? chain.escrowState().then((s) => s.treasury)]).then(
      ([d, treasury]) => ({ ...d, treasury }),
    );
    hit.catch(() => byToken.delete(token)); // an outage is read again next time
    byToken.set(token, hit);
  }
  return hit;
}

/**
 * The x402 rail of `symbol`: on when the base rail runs with a relayer key and the asset has a
 * Base address (docs/payments.md "Turning it on"). The treasury is OABP_TREASURY_ADDRESS, else
 * the escrow contract's own treasury.
 */
export async function x402Rail(deps: Deps, symbol: string): Promise<X402Rail> {
  const chain = deps.chain;
  const relayer = chain?.relayer;
  if (!chain || !relayer)
    throw new AppError("UNPROCESSABLE", "x402 payments are not enabled on this server (no relayer key)", {
      reason: "x402_not_enabled",
    });
  const asset = findAsset(deps.config.assets, symbol);
  const address = asset?.addresses.base;
  if (!asset || !address)
    throw new AppError("UNPROCESSABLE", `asset ${symbol} cannot be paid with x402 here (no Base address)`, {
      field: "asset",
      reason: "unknown_asset",
    });
  const token = getAddress(address);
  const read = await readOnce(chain, relayer, token, deps.config.baseRail?.treasury).catch(() => {
    throw new AppError("SERVICE_UNAVAILABLE", "the chain RPC is unavailable; retry later", {
      reason: "rpc_unavailable",
    });
  });
  return {
    chain,
    relayer,
    asset,
    token,
    payTo: getAddress(read.treasury),
    network: `eip155:${chain.chainId}`,
    domain: { name: read.name, version: read.version },
  };
}

export function requirementsOf(rail: X402Rail, amount: bigint): PaymentRequirements {
  return {
    scheme: "exact",
    network: rail.network,
    amount: amount.toString(),
    asset: rail.token,
    payTo: rail.payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: rail.domain,
  };
}
