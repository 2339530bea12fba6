import { z } from "@hono/zod-openapi";
import { pageOf, intOrNull, int, strOrNull, str, bool } from "../../http/wire";
import { EscrowAttestation } from "../escrow";

// Wire schemas of /transparency, /transparency/payouts and /stats, by hand.

const amount = z.string().openapi({ description: "Base units, base-10 integer string", example: "100000000" });

const ReconciledAsset = z.object({
  asset: z.string(),
  token: str("ERC-20 address, lower-case"),
  held: amount
    .nullable()
    .openapi({ description: "What the database says the contract holds (null: no block to read at)" }),
  deposits: z.number().int().nullable(),
  on_chain: amount.nullable().openapi({ description: "balanceOf(escrow) at block_number (null: RPC unavailable)" }),
  difference: strOrNull("on_chain − held (may be negative: a shortfall)"),
  reconciled: z.boolean().nullable().openapi({ description: "on_chain ≥ held; null when not read" }),
  exited_slots: int("Deposits their funder took back on chain (SelfRefunded, Reclaimed): not held"),
  exited_amount: amount,
  credits_withdrawn: amount.openapi({ description: "Pull credits withdrawn (Withdrawn logs)" }),
  credits_outstanding: amount.openapi({ description: "Pull credits not withdrawn yet: part of a positive difference" }),
});

const GovernanceArgs = z.record(z.string(), z.unknown());

export const TransparencyResponse = z
  .object({
    issuer: z.string(),
    as_of: z.string(),
    ledger: z.object({
      assets: z.array(
        z.object({
          asset: z.string(),
          decimals: z.number().int(),
          escrowed_total: amount,
          escrow_accounts: z.number().int(),
          heads_digest: str("sha256 over the escrow accounts' hash-chain heads"),
        }),
      ),
      attestation: EscrowAttestation,
      verify: z.string(),
    }),
    base: z.object({
      enabled: z.boolean(),
      off_reason: z.string().nullable(),
      rpc: z.enum(["ok", "unavailable", "not_configured", "not_used"]),
      rpc_error: z.string().optional(),
      note: z.string(),
      chain_id: z.number().int().nullable(),
      escrow_contract: z.string().nullable(),
      block_number: intOrNull("The confirmed head both sides are read at"),
      as_of: z.string(),
      assets: z.array(ReconciledAsset).openapi({ description: "Per token, summed over every followed contract" }),
      contracts: z
        .array(
          z.object({
            address: z.string(),
            version: z.string(),
            current: bool("New missions fund this one; the others are retired"),
            reconciled: z.boolean().nullable(),
            assets: z.array(ReconciledAsset),
          }),
        )
        .openapi({ description: "Each followed escrow contract, held vs on-chain at block_number" }),
      custody_alerts: z
        .array(
          z.object({
            id: z.string(),
            kind: z.enum(["foreign_proposal", "foreign_release", "resolver_refund", "decision_refused"]),
            contract: z.string(),
            mission_id: z.string().nullable(),
            mission_key: z.string(),
            funder: z.string(),
            payout_id: z.string().nullable(),
            tx_hash: z.string().nullable(),
            detail: GovernanceArgs,
            created_at: z.string(),
          }),
        )
        .openapi({
          description:
            "Open custody alerts (docs/custody.md): movements or proposals no signed decision explains; a contract with one is not reconciled",
        }),
      governance: z.object({
        pending: z
          .array(
            z.object({
              contract: z.string(),
              kind: str("resolver | guardian | admin_transfer | admin_delay | fee_cap | release"),
              event: z.string(),
              args: GovernanceArgs,
              proposed_block: z.number().int(),
              tx_hash: z.string(),
              effective_at: intOrNull("Unix seconds it may take effect"),
              effective_at_iso: z.string().nullable(),
            }),
          )
          .openapi({ description: "Proposed changes not in effect yet: a funder's exit window" }),
        recent: z.array(
          z.object({
            contract: z.string(),
            event: z.string(),
            args: GovernanceArgs,
            block_number: z.number().int(),
            tx_hash: z.string(),
            at: z.string().nullable(),
          }),
        ),
      }),
    }),
    withdrawals: z
      .array(z.object({ asset: z.string(), state: z.string(), count: z.number().int(), total: amount }))
      .openapi({ description: "Withdrawals of ledger balances to wallets (docs/withdrawals.md), per asset and state" }),
    payouts: z.string(),
  })
  .openapi("Transparency");

export const PayoutsQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(50)
    .openapi({ param: { name: "limit", in: "query" } }),
  cursor: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: "cursor", in: "query" }, description: "next_cursor of the previous page" }),
  asset: z
    .string()
    .max(16)
    .optional()
    .openapi({ param: { name: "asset", in: "query" } }),
  rail: z
    .enum(["ledger", "base"])
    .optional()
    .openapi({ param: { name: "rail", in: "query" } }),
});

export const PayoutsPage = pageOf("PayoutsPage", {
  payouts: z.array(
    z.object({
      submission_id: z.string(),
      mission_id: z.string(),
      agent_id: z.string(),
      asset: z.string(),
      amount,
      rail: z.enum(["ledger", "base"]),
      paid_at: str("When the award was decided and the payout made (ledger) or queued (base)"),
      settlement: z.object({
        status: str("ledger: credited; base: the release's state (queued … final, failed)"),
        chain_id: z.number().int().nullable(),
        tx_hash: z.string().nullable(),
        ledger_entry_hash: z.string().nullable(),
      }),
      receipt: str("The signed §6.1 receipt"),
    }),
  ),
});

export const StatsResponse = z
  .object({
    as_of: z.string(),
    missions: z.object({
      total: z.number().int(),
      by_status: z.object({
        open: z.number().int(),
        escrowed: z.number().int(),
        resolved: z.number().int(),
        voided: z.number().int(),
      }),
    }),
    volume_paid: z.array(
      z.object({ asset: z.string(), amount, payouts: z.number().int(), missions: z.number().int() }),
    ),
    agents: z.number().int(),
    transparency: z.string(),
  })
  .openapi("Stats");
