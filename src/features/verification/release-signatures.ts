import type { Hex } from "viem";
import type { EscrowRecord } from "../../db/schema/index";
import type { Ctx, TxCtx } from "../../lib/context";
import type { Deps } from "../../deps";
import { AppError } from "../../lib/errors";
import { releaseTypedDataWire, verifyReleaseLocally, type ReleasePlan } from "../../lib/release-typed-data";
import { RpcUnavailableError } from "../../lib/base-chain";
import { plannedReleases, type SlotRelease, type Winner } from "../settlement";
import type { MissionRow } from "../../db/rows";

// The funder-signed release path of a creator_judges award (docs/base-rail.md "Release paths";
// contract MissionEscrow releaseSigned): the creator signs, per escrow slot it funded, the
// exact release the award queues (EIP-712 Release), so a stolen resolver key cannot redirect it.
// On a v4 contract the Release also binds the slot instance (token, funding nonce) and a deadline
// (the slot's refund-after), read from the chain (docs/base-rail.md "Trust model (contract v4)").
// Slots funded by someone else, or left unsigned, take the delayed path.

/** The slot's plan; with its instance on a v4 contract (read through the chain port). */
async function planOf(deps: Deps, m: MissionRow, r: SlotRelease): Promise<ReleasePlan> {
  const plan = {
    missionKey: r.missionKey as Hex,
    funder: r.funder,
    recipients: r.recipients,
    amounts: r.amounts,
    fee: r.fee,
  };
  const chain = deps.chain;
  if (!chain || chain.chainId !== m.escrow!.chain_id || chain.versionOf(m.escrow!.contract) !== "4") return plan;
  try {
    const slot = await chain.slotInstance(plan.missionKey, plan.funder, m.escrow!.contract);
    return slot ? { ...plan, slot } : plan;
  } catch (err) {
    if (!(err instanceof RpcUnavailableError)) throw err;
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "the release's slot must be read from the chain, which is unreachable now",
      {
        reason: "rpc_unavailable",
        mission_key: r.missionKey,
      },
    );
  }
}

/** What a release-signature check is about: the award's mission and winners. */
interface AwardPlan {
  mission: MissionRow;
  winners: Winner[];
}

/** The releases of this award the creator may sign: the slots it funded (its own deposit, its top-ups). */
export async function signableReleases(ctx: Pick<TxCtx, "tx" | "deps">, award: AwardPlan): Promise<SlotRelease[]> {
  const m = award.mission;
  if (m.rewardChain !== "base" || !m.escrow) return [];
  return (await plannedReleases(ctx, award)).filter((r) => r.funder.toLowerCase() === m.creator.toLowerCase());
}

/** POST /missions/{id}/award/typed-data: one EIP-712 Release per signable slot. */
export async function typedDataOf(
  { deps }: Pick<Ctx, "deps">,
  { mission: m, releases }: { mission: MissionRow; releases: SlotRelease[] },
) {
  const out = [];
  for (const r of releases)
    out.push({
      mission_key: r.missionKey,
      funder: r.funder,
      typed_data: releaseTypedDataWire(m.escrow!.chain_id, m.escrow!.contract, await planOf(deps, m, r)),
    });
  return out;
}

const badSignature = (missionKey: string, why: string): never => {
  throw new AppError("UNPROCESSABLE", `release signature for ${missionKey}: ${why}`, {
    reason: "bad_release_signature",
    mission_key: missionKey,
  });
};

/** secp256k1 n / 2: OpenZeppelin's ECDSA (the contract's SignatureChecker) refuses any larger `s`. */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/**
 * Why the contract would refuse this EOA signature although it recovers off chain, or null:
 * OpenZeppelin's ECDSA accepts only 65 bytes, `s` in the lower half and `v` 27 or 28 (EIP-2),
 * where viem also takes the high-s twin, a 64-byte compact form and v 0/1.
 */
function nonCanonical(signature: string): string | null {
  const hex = signature.toLowerCase().replace(/^0x/, "");
  if (hex.length !== 130) return "the contract takes 65-byte signatures (r, s, v) only";
  if (BigInt(`0x${hex.slice(64, 128)}`) > HALF_N)
    return "its s value is in the upper half (high-s): the contract refuses it";
  const v = parseInt(hex.slice(128, 130), 16);
  if (v !== 27 && v !== 28) return "its v byte must be 27 or 28";
  return null;
}

/** Whether `signature` is the funder's over `plan`: an EOA locally, else a smart wallet through the RPC. */
async function signedByFunder(
  deps: Deps,
  { escrow, plan, key, signature }: { escrow: EscrowRecord; plan: ReleasePlan; key: string; signature: Hex },
) {
  if (await verifyReleaseLocally(escrow.chain_id, escrow.contract, plan, signature)) {
    // The server refuses what the contract will refuse (OpenZeppelin ECDSA): never accepted and left queued.
    const why = nonCanonical(signature);
    if (why)
      throw new AppError(
        "UNPROCESSABLE",
        `release_signatures.${key}: ${why}; sign again (viem and ethers produce the canonical form)`,
        {
          reason: "non_canonical_release_signature",
          field: `release_signatures.${key}`,
          mission_key: key,
        },
      );
    return true;
  }
  if (!deps.chain || deps.chain.chainId !== escrow.chain_id) return false;
  try {
    return await deps.chain.verifyRelease(escrow.contract, plan, signature);
  } catch (err) {
    if (!(err instanceof RpcUnavailableError)) throw err;
    throw new AppError("SERVICE_UNAVAILABLE", "a smart-wallet signature needs the chain, which is unreachable now", {
      reason: "rpc_unavailable",
      mission_key: key,
    });
  }
}

/**
 * Checks the award's `release_signatures` against the releases it will queue (off chain: an EOA
 * locally, a smart wallet through the RPC); 422 bad_release_signature on any mismatch, or on a
 * key that names no slot the creator funded. Answers the signatures to store, by escrow key.
 */
export async function checkReleaseSignatures(
  ctx: Pick<TxCtx, "tx" | "deps">,
  award: AwardPlan & { given: Record<string, string> | undefined },
): Promise<Record<string, string>> {
  const entries = Object.entries(award.given ?? {});
  if (entries.length === 0) return {};
  const releases = new Map((await signableReleases(ctx, award)).map((r) => [r.missionKey.toLowerCase(), r] as const));
  const out: Record<string, string> = {};
  for (const [key, signature] of entries) {
    const r =
      releases.get(key.toLowerCase()) ??
      badSignature(key, "no escrow slot of this mission funded by its creator has this key");
    if (
      !(await signedByFunder(ctx.deps, {
        escrow: award.mission.escrow!,
        plan: await planOf(ctx.deps, award.mission, r),
        key,
        signature: signature as Hex,
      }))
    )
      badSignature(key, "it does not verify for the funder over this award's release");
    out[r.missionKey] = signature.toLowerCase();
  }
  return out;
}
