import { z } from "@hono/zod-openapi";
import { pageQuery, pageOf } from "../../http/wire";
import { pathId } from "../../http/params";
import { DISPUTE_TYPES } from "../manifest";

// AIP-4 §2 wire shapes, written from the spec.

const url = z
  .string()
  .url()
  .max(2048)
  .refine((u) => /^(https?:|ipfs:|ar:)/.test(u), "must be an http(s)://, ipfs:// or ar:// URL");

export const FileDisputeRequest = z
  .object({
    dispute_type: z.enum(DISPUTE_TYPES),
    mission_id: z.string().min(1).max(64),
    submission_id: z
      .string()
      .min(1)
      .max(64)
      .nullable()
      .optional()
      .openapi({ description: 'Required except for bad_spec (where "any" or absent means the mission as a whole)' }),
    filed_by: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: 'The caller\'s address (default), or "anonymous" for bad_spec (§2.2)' }),
    evidence: z.object({
      description: z.string().min(1).max(2000),
      links: z.array(url).max(10).optional(),
      // dup_claim (§1.3): the competing submission.
      other_submission_id: z.string().min(1).max(64).optional(),
      // bad_spec (§1.2): the rule field at odds with the stated criteria.
      rule_field: z.string().max(200).optional(),
      // oracle_disagreement (§1.4): the oracle's answer and a content-addressed counter-source.
      oracle_response: z.string().max(4000).optional(),
      counter_source: z.object({ url, content_hash: z.string().regex(/^(sha256:|0x)?[0-9a-fA-F]{64}$/) }).optional(),
    }), // unknown evidence keys are dropped: only these bounded fields are stored
    // AIP-4 §7.2: a filer whose identity is on another hub, instead of signing in here.
    cross_server_identity: z
      .object({
        attestation_url: url.refine((u) => /^https?:/.test(u), "must be an http(s):// URL"),
        signed_at: z.string().datetime({ offset: true }),
        signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/),
      })
      .optional()
      .openapi({
        description:
          "AIP-4 §7.2 cross-server filer: the AIP-3 attestation URL on its hub and an EIP-191 signature by the attested key over the message of docs/aip-3-4.md (crossServerProofMessage)",
      }),
  })
  .openapi("FileDispute");
export type FileDisputeInput = z.infer<typeof FileDisputeRequest>;

export const Dispute = z
  .object({
    dispute_id: z.string(),
    dispute_type: z.enum(DISPUTE_TYPES),
    mission_id: z.string(),
    submission_id: z.string().nullable(),
    filed_by: z.string(),
    status: z.enum(["open", "resolved", "expired"]),
    filed_at: z.string(),
    resolution_deadline: z.string(),
    evidence: z.record(z.string(), z.unknown()),
    outcome: z.enum(["upheld", "rejected", "split", "expired"]).nullable(),
    rationale: z.string().nullable(),
    resolved_at: z.string().nullable(),
    resolution_actor: z.enum(["server", "oracle", "peer_vote", "creator"]).nullable(),
    corrective_action: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "AIP-4 §4 action taken when upheld (or expired in the filer's favour)" }),
  })
  .openapi("Dispute");
export type DisputeWire = z.infer<typeof Dispute>;

export const DisputeList = pageOf("DisputeList", { disputes: z.array(Dispute) });

export const ListDisputesQuery = z.object({
  mission_id: z.string().max(64).optional(),
  status: z.enum(["open", "resolved", "expired"]).optional(),
  ...pageQuery(),
});

export const DisputeIdParam = z.object({
  id: pathId("id"),
});

const SplitShare = z.object({
  submission_id: z.string().min(1).max(64),
  share_bps: z.number().int().min(1).max(10_000),
});

export const ResolveDisputeRequest = z
  .object({
    outcome: z.enum(["upheld", "rejected", "split"]),
    rationale: z.string().min(1).max(500),
    split: z.array(SplitShare).min(1).max(10).optional().openapi({
      description:
        "AIP-4 §3.2 `split` (required with it, refused otherwise): the submissions paid and their shares of the reward net of the fee, summing to 10 000 bps; paid through the award path while the mission is still deciding",
    }),
  })
  .superRefine((b, ctx) => {
    if (b.outcome === "split" && !b.split)
      ctx.addIssue({ code: "custom", path: ["split"], message: "required when outcome is split" });
    if (b.outcome !== "split" && b.split)
      ctx.addIssue({ code: "custom", path: ["split"], message: "only with outcome split" });
    if (b.split) {
      if (b.split.reduce((s, x) => s + x.share_bps, 0) !== 10_000)
        ctx.addIssue({ code: "custom", path: ["split"], message: "share_bps must sum to 10000" });
      if (new Set(b.split.map((x) => x.submission_id)).size !== b.split.length)
        ctx.addIssue({ code: "custom", path: ["split"], message: "each submission once" });
    }
  })
  .openapi("ResolveDispute");
export type SplitShareInput = z.infer<typeof SplitShare>;

export const RateLimited = z
  .object({
    error: z.literal("rate_limited"),
    reset_at: z.string(),
    dispute_type: z.enum(DISPUTE_TYPES),
    message: z.string(),
    request_id: z.string(),
  })
  .openapi("DisputeRateLimited", { description: "AIP-4 §6.1 429 body" });
