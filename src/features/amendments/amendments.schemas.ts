import { z } from "@hono/zod-openapi";
import { Tag, pageOf, int, strOrNull, str, idOf } from "../../http/wire";
import { isUintString } from "../../lib/money";

// Amendments to a posted mission: wire shapes by hand
// (docs/style.md rule 6). One POST with a `kind`, one public log.

const AMENDMENT_KINDS = ["extend_deadline", "top_up", "edit"] as const;
const AMENDMENT_STATUSES = ["applied", "pending", "rejected"] as const;

export const AmendMissionRequest = z
  .discriminatedUnion("kind", [
    z
      .object({
        kind: z.literal("extend_deadline"),
        deadline: z
          .string()
          .datetime({ offset: true })
          .openapi({ description: "The new deadline: later than the current one, by at most the server's bound" }),
      })
      .strict(),
    z
      .object({
        kind: z.literal("top_up"),
        amount: z
          .string()
          .max(78)
          .refine(isUintString, "must be a uint256 base-10 integer string")
          .openapi({ description: "Added to the reward, base units (a positive integer string)", example: "5000000" }),
      })
      .strict(),
    z
      .object({
        kind: z.literal("edit"),
        title: z.string().trim().min(1).max(200).optional(),
        description: z.string().trim().min(1).max(50_000).optional(),
        tags: z.array(Tag).max(10).optional(),
      })
      .strict(),
  ])
  .openapi("AmendMissionRequest", {
    description:
      "extend_deadline (creator; later only, bounded; before the deadline), top_up (anyone unless the operator restricts it; ledger: moved from the caller's balance at once; base: a new escrow slot to fund, applied at the confirmation depth), edit (creator; title/description/tags; only before the first submission)",
  });
export type AmendMissionInput = z.infer<typeof AmendMissionRequest>;

const Change = z.object({ from: z.unknown(), to: z.unknown() });

const AmendmentEscrowWire = z
  .object({
    chain_id: z.number().int(),
    contract: z.string(),
    token: z.string(),
    mission_key: str("This top-up's own escrow key: keccak256(bytes(amendment id)), not the mission's"),
    amount: z.string(),
    spam_fee: str("0: a top-up pays no spam fee"),
    refund_after: int("The deposit's refund-after (fundUntil) must reach this"),
    fund_call: str("The call to make after approve(amount)"),
    deposit_tx_hash: z.string().nullable(),
  })
  .openapi("AmendmentEscrow");

export const Amendment = z
  .object({
    id: idOf("amd"),
    mission_id: z.string(),
    seq: int("1, 2, … in the mission's log"),
    kind: z.enum(AMENDMENT_KINDS),
    actor: str("Who made the change (lowercase address)"),
    status: z.enum(AMENDMENT_STATUSES).openapi({
      description: "applied; pending (a base-rail top-up waiting for its deposit); rejected (reason says why)",
    }),
    rail: z.enum(["ledger", "base"]),
    changes: z.record(z.string(), Change).openapi({ description: "{field: {from, to}}: deadline, reward, title, …" }),
    amount: strOrNull("top_up: the amount added"),
    escrow: AmendmentEscrowWire.nullable().openapi({ description: "base-rail top_up: the slot to fund" }),
    reason: z.string().nullable(),
    created_at: z.string(),
    applied_at: z.string().nullable(),
  })
  .openapi("Amendment");
export type AmendmentWire = z.infer<typeof Amendment>;

export const AmendmentList = pageOf("AmendmentList", {
  mission_id: z.string(),
  amendments_count: int("Applied amendments"),
  amendments: z.array(Amendment).openapi({ description: "Oldest first (seq order)" }),
});
export type AmendmentListWire = z.infer<typeof AmendmentList>;

export const ListAmendmentsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(20).optional().openapi({ description: "next_cursor of the previous page" }),
});
