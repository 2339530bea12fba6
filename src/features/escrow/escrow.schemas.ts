import { z } from "@hono/zod-openapi";
import { intOrNull, strOrNull, str, bool } from "../../http/wire";

// Wire shapes of the base rail (docs/design.md "Escrow and settlement"; AIP-1 §6, Appendix B payout_status).

const EscrowDepositWire = z.object({
  id: z.string(),
  status: z.enum(["pending", "confirmed", "final", "reorged", "rejected"]),
  tx_hash: z.string(),
  log_index: z.number().int(),
  funder: z.string(),
  block_number: z.number().int(),
});

export const MissionEscrowWire = z
  .object({
    chain_id: z.number().int(),
    contract: str("MissionEscrow contract to fund"),
    mission_key: str("keccak256(bytes(mission_id)): the key to fund"),
    token: str("ERC-20 the reward is escrowed in"),
    amount: str("Escrow at least this (the reward), base units"),
    spam_fee: str("Pay at least this spam fee with the deposit (non-refundable), base units"),
    fund_call: str(
      "The call that escrows it, after approving amount + spam_fee (or a permit; contract v4: or fundWithAuthorization from an EIP-3009 authorization). Contract v4 refuses funding while a governance change of the escrow is pending (GovernanceChangePending): wait for it to take effect or be cancelled",
    ),
    refund_after: strOrNull(
      "Contract v2: the deposit's refund-after time must be at least this; from then on an unreleased deposit is its funder's to take back (selfRefund)",
    ),
    signed_only_until: strOrNull(
      "Contract v4, creator_judges: the end of the judging window, the deposit's signedOnlyUntil (the last fundUntil argument); before it nobody can propose the slot, only the creator's signed release or a refund moves it. Null: 0 (no restriction), or an older contract",
    ),
    deposit: EscrowDepositWire.nullable().openapi({
      description: "The deposit backing the mission; the mission is open once it is confirmed",
    }),
    payout_tx_hash: strOrNull("The release (or refund) transaction, once broadcast"),
  })
  .openapi("MissionEscrow", { description: "base rail only: where and how the reward is escrowed on chain" });

export const AttachDepositRequest = z
  .object({ tx_hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte transaction hash") })
  .openapi("AttachDeposit");

const uint = z.string().regex(/^\d{1,78}$/, "must be a base-10 integer");

export const FundingAuthorizationRequest = z
  .object({
    valid_after: uint.openapi({ description: "EIP-3009 validAfter (unix seconds), as signed", example: "0" }),
    valid_before: uint.openapi({
      description: "EIP-3009 validBefore (unix seconds), as signed",
      example: "1767225600",
    }),
    salt: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x + 32 bytes")
      .openapi({
        description:
          "The salt of the nonce: fundingAuthorizationNonce(key, amount, spamFee, refundAfter, signedOnlyUntil, salt)",
      }),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte 0x signature")
      .openapi({
        description:
          "The creator's EIP-712 ReceiveWithAuthorization signature (to: the escrow, value: amount + spam fee)",
      }),
  })
  .openapi("FundingAuthorization");

export const AttachDepositResponse = z
  .object({
    mission_id: z.string(),
    mission_status: z.string(),
    escrow: MissionEscrowWire,
  })
  .openapi("AttachDepositResult");

/** A payout's release path (GET /treasury, /admin/payouts: payouts.paths.ts releasePathWire). */
export const RELEASE_PATH_FIELDS = {
  release_path: z.enum(["signed", "delayed"]).nullable().openapi({
    description:
      "A release's path (docs/base-rail.md \"Release paths\"): signed (the funder's EIP-712 signature, releaseSigned) or delayed (propose, then execute after the challenge window); null for a refund",
  }),
  step: z.enum(["propose", "execute"]).nullable().openapi({ description: "delayed path: the transaction in progress" }),
  proposal_tx_hash: z.string().nullable(),
  executable_at: strOrNull("delayed path: from this chain time anyone may execute the proposed release"),
};

export const TreasuryResponse = z
  .object({
    treasury_health: z.enum(["ok", "low_gas", "not_applicable"]).openapi({
      description:
        "AIP-4 §8.2: low_gas while a payout waits for resolver gas (pending_gas) — submissions to base-rail missions are paused; not_applicable without the base rail",
    }),
    base_rail: z.object({
      enabled: z.boolean(),
      off_reason: z.string().nullable(),
      available: bool(
        'false while this process cannot use the rail (docs/base-rail.md "Degrade, never exit"): new base missions get 503 rail_unavailable',
      ),
      unavailable_reason: z
        .enum(["rpc_unavailable", "resolver_role_missing", "misconfigured"])
        .nullable()
        .openapi({ description: "Why the rail is unavailable (checked again every poll interval)" }),
      unavailable_detail: z.string().nullable(),
      chain_id: z.number().int().nullable(),
      escrow_contract: z.string().nullable(),
      rpc: z
        .enum(["ok", "unavailable", "wrong_chain", "off"])
        .openapi({ description: "A live probe (eth_chainId) now, not a cached flag" }),
      rpc_error: z.string().nullable(),
      workers: z
        .array(
          z.object({
            name: str("watcher | settlement"),
            healthy: bool("Ran without an outage within the last three poll intervals (or 30 s)"),
            last_run_at: z.string(),
            last_ok_at: z.string().nullable(),
            last_error: z.string().nullable(),
          }),
        )
        .openapi({ description: "Heartbeats of the base-rail workers of every process (empty: no worker ever ran)" }),
      oldest_queued_payout_age_seconds: intOrNull("Age of the oldest payout not yet broadcast (queued or pending_gas)"),
      resolver: z
        .object({
          address: z.string(),
          gas_balance_wei: strOrNull("null when the RPC did not answer"),
          next_nonce: z.number().int().nullable(),
        })
        .nullable(),
      escrowed: z.array(
        z.object({
          contract: str("The escrow contract holding these deposits (current or retired)"),
          asset: z.string(),
          token: z.string(),
          amount: str("Sum of live deposits not yet paid out or refunded, base units"),
          deposits: z.number().int(),
          contract_balance: strOrNull("The token balance the escrow contract holds on chain"),
        }),
      ),
      pending_settlements: z.object({
        by_state: z.record(z.string(), z.number().int()),
        items: z.array(
          z.object({
            id: z.string(),
            mission_id: z.string(),
            kind: z.string(),
            state: z.string(),
            reason: z.string().nullable(),
            asset: z.string(),
            amount: z.string(),
            tx_hash: z.string().nullable(),
            nonce: z.number().int().nullable(),
            updated_at: z.string(),
            next_check_at: z.string().nullable(),
            retries: z.number().int(),
            ...RELEASE_PATH_FIELDS,
          }),
        ),
      }),
    }),
    ledger: z.object({ treasury: z.array(z.object({ asset: z.string(), balance: z.string() })) }),
  })
  .openapi("Treasury");

/** AIP-1 §6 ledger rail: the mission's escrow account and its hash chain (features/ledger). */
const LedgerEscrowWire = z
  .object({
    account: z.string().openapi({ example: "escrow:mis_01J..." }),
    asset: z.string(),
    balance: str("Held now, base units"),
    seq: z.number().int(),
    head_hash: strOrNull(
      "Head of the account's hash chain; covered by the signed /escrow/attestation heads_digest while the balance is positive",
    ),
    entries: z.array(
      z.object({
        seq: z.number().int(),
        kind: z.string(),
        amount: z.string(),
        balance_after: z.string(),
        prev_hash: z.string(),
        hash: z.string(),
        at: z.string(),
      }),
    ),
    attestation: z.string(),
  })
  .openapi("LedgerEscrow");

export const MissionEscrowView = z
  .object({
    mission_id: z.string(),
    mission_status: z.string(),
    rail: z.enum(["ledger", "base"]),
    escrow: MissionEscrowWire.nullable().openapi({ description: "base rail: the on-chain escrow" }),
    ledger: LedgerEscrowWire.nullable().openapi({ description: "ledger rail: the escrow account" }),
  })
  .openapi("MissionEscrowView");

export const EscrowAttestation = z
  .object({
    type: z.literal("oabp.escrow_attestation"),
    issuer: z.string(),
    issued_at: z.string(),
    rail: z.literal("ledger"),
    assets: z.array(
      z.object({
        asset: z.string(),
        decimals: z.number().int(),
        escrowed_total: z.string(),
        escrow_accounts: z.number().int(),
        heads_digest: z.string(),
      }),
    ),
    heads_digest_rule: z.string(),
    digest: z.string(),
    signature: z.object({ alg: z.literal("ed25519"), key_id: z.string(), value: z.string() }),
  })
  .openapi("EscrowAttestation", {
    description: "Signed like a receipt (AIP-1 §6.1 procedure, key from receipt_signing_keys)",
  });
