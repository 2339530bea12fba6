import { readFileSync } from "node:fs";
import path from "node:path";
import { encodeFunctionData, type Abi, type Address, type Hex } from "viem";
import { identityRegistryUpgradeableAbi } from "../../src/lib/abi/erc8004-identity";
import { reputationRegistryUpgradeableAbi } from "../../src/lib/abi/erc8004-reputation";
import type { Anvil } from "./anvil";

// The ERC-8004 reference registries (contracts/vendor/erc8004, docs/erc-8004.md) deployed as
// upstream's tests deploy them: an ERC1967Proxy on the placeholder UUPS implementation
// (HardhatMinimalUUPS, owner = the deployer), then upgradeToAndCall(registry, initialize(...)).

const minimalAbi = (
  JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, "../../contracts/artifacts/HardhatMinimalUUPS.json"), "utf8"),
  ) as { abi: Abi }
).abi;
const ZERO = "0x0000000000000000000000000000000000000000";

async function deployRegistry(anvil: Anvil, impl: string, identity: Address, init: Hex): Promise<Address> {
  const minimal = await anvil.deploy("HardhatMinimalUUPS");
  const placeholderInit = encodeFunctionData({ abi: minimalAbi, functionName: "initialize", args: [identity] });
  const proxy = await anvil.deploy("ERC1967Proxy", [minimal, placeholderInit]);
  const real = await anvil.deploy(impl);
  const hash = await anvil.walletClient.writeContract({
    address: proxy,
    abi: minimalAbi,
    functionName: "upgradeToAndCall",
    args: [real, init],
  });
  const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`upgrading the ${impl} proxy reverted`);
  return proxy;
}

/** The identity and reputation registries, behind their proxies. */
export async function deployErc8004(anvil: Anvil): Promise<{ identity: Address; reputation: Address }> {
  const identity = await deployRegistry(
    anvil,
    "IdentityRegistryUpgradeable",
    ZERO,
    encodeFunctionData({ abi: identityRegistryUpgradeableAbi, functionName: "initialize" }),
  );
  const reputation = await deployRegistry(
    anvil,
    "ReputationRegistryUpgradeable",
    identity,
    encodeFunctionData({ abi: reputationRegistryUpgradeableAbi, functionName: "initialize", args: [identity] }),
  );
  return { identity, reputation };
}

/** The reputation registry's last feedback index from `reporter` about `agentId` (0n: none yet). */
export function lastFeedbackIndex(anvil: Anvil, reputation: Address, agentId: bigint, reporter: Address) {
  return anvil.publicClient.readContract({
    address: reputation,
    abi: reputationRegistryUpgradeableAbi,
    functionName: "getLastIndex",
    args: [agentId, reporter],
  });
}
