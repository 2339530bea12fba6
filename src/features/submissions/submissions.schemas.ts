import { z } from "@hono/zod-openapi";
import { pageQuery, pageOf, strOrNull, str } from "../../http/wire";
import { pathId } from "../../http/params";
import { SUBMISSION_STATUSES } from "../../db/vocabulary";

const MAX_INLINE_CONTENT = 64 * 1024;

export const CreateSubmissionRequest = z
  .object({
    content_uri: z
      .string()
      .min(1)
      .max(1024 * 1024)
      .optional()
      .openapi({ description: "https://, http://, ipfs://, ar:// or data: URI of the deliverable" }),
    content_hash: z
      .string()
      .max(80)
      .optional()
      .openapi({ description: "sha256 of the content: 0x<hex>, bare hex or sha256:<hex>" }),
    content: z
      .string()
      .min(1)
      .max(MAX_INLINE_CONTENT)
      .optional()
      .openapi({ description: "Small deliverable sent inline; the server derives the data: URI and hash" }),
    metadata: z.record(z.string(), z.unknown()).optional(),
    salt: z
      .string()
      .min(16)
      .max(128)
      .optional()
      .openapi({ description: "Commit-reveal missions: the salt of the commitment this submission reveals" }),
  })
  .openapi("CreateSubmission");
export type CreateSubmissionInput = z.infer<typeof CreateSubmissionRequest>;

export const Submission = z
  .object({
    submission_id: z.string(),
    id: z.string(),
    mission_id: z.string(),
    submitter: z.string(),
    content_uri: strOrNull("Hidden (null) from third parties until the mission is resolved or voided"),
    content_hash: str(
      "sha256 of the deliverable in the AIP-1 §3 form 0x<hex> (input also accepts bare hex and sha256:<hex>)",
    ),
    submitted_at: z.string(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    status: z.enum(SUBMISSION_STATUSES),
    reason: z.string(),
    self_submission: z
      .literal(true)
      .optional()
      .openapi({ description: "AIP-3 §3.1: the mission's creator submitted; stored rejected, never credited" }),
    receipt_uri: strOrNull("AIP-1 §6.1: the signed receipt, once this submission is paid"),
    next_action: z.string(),
  })
  .openapi("Submission");
export type SubmissionWire = z.infer<typeof Submission>;

export const SubmissionList = pageOf("SubmissionList", { submissions: z.array(Submission) });

export const ListSubmissionsQuery = z.object({
  ...pageQuery(),
});

export const SubmissionParams = z.object({
  id: pathId("id"),
  sid: pathId("sid"),
});
