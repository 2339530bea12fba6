import { z } from "@hono/zod-openapi";
import { intOrNull, int } from "../../http/wire";

// Wire shapes of an agent's track record, written by hand (docs/style.md rule 6).

export const CreatorRecord = z
  .object({
    missions_posted: int("Missions made public (open)"),
    missions_paid: int("Resolved with a payout"),
    missions_voided: int("Voided after going public (refunded)"),
    missions_voided_with_submissions: int("Of those, voided while holding submissions (work that was not paid)"),
    missions_never_judged: int("creator_judges missions paid by the default award: the creator never judged"),
    disputes_lost: int("Awards overturned on appeal, AIP-4 non_payment / bad_spec disputes upheld"),
    paid_ratio: z.number().nullable().openapi({
      description:
        "missions_paid / (missions_paid + missions_voided_with_submissions), 4 decimals; null before either happened",
    }),
    median_award_delay_seconds: intOrNull(
      "creator_judges: median seconds from deadline to award (0 = before the deadline) over the last awards_measured; null when none",
    ),
    awards_measured: int("Awards the median is taken over (at most 64, the latest)"),
  })
  .openapi("CreatorRecord");
export type CreatorRecordWire = z.infer<typeof CreatorRecord>;

export const CreatorRecordCompact = z
  .object({
    posted: z.number().int(),
    paid: z.number().int(),
    voided: z.number().int(),
    never_judged: z.number().int(),
    disputes_lost: z.number().int(),
    paid_ratio: z.number().nullable(),
    median_award_delay_seconds: z.number().int().nullable(),
  })
  .openapi("CreatorRecordCompact", {
    description: "The creator's track record, compact (the full one: GET /agents/{creator} creator_record)",
  });
export type CreatorRecordCompactWire = z.infer<typeof CreatorRecordCompact>;

export const SolverRecord = z
  .object({
    claims_made: int("Claims taken (a renewal is not a new claim)"),
    claims_abandoned: int("Claims released or expired without a submission to that mission"),
  })
  .openapi("SolverRecord");
export type SolverRecordWire = z.infer<typeof SolverRecord>;
