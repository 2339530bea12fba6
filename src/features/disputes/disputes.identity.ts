import type { Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { crossServerIdentity } from "../portability";
import type { FileDisputeInput } from "./disputes.schemas";
import type { Filer } from "./disputes.qualify";

// AIP-4 §7.2: who files when the filer proves an identity hosted on another hub (the proof itself:
// portability.identity.ts). The signed message binds this server, the filing and the attestation.

/** The exact text the filer's key signs (EIP-191 personal_sign), one field a line. */
export function crossServerProofMessage(f: {
  server: string;
  dispute_type: string;
  mission_id: string;
  submission_id: string | null | undefined;
  attestation_url: string;
  signed_at: string;
}): string {
  return [
    "AIP-4 cross-server dispute",
    `server: ${f.server}`,
    `dispute_type: ${f.dispute_type}`,
    `mission_id: ${f.mission_id}`,
    `submission_id: ${f.submission_id ?? ""}`,
    `attestation_url: ${f.attestation_url}`,
    `signed_at: ${f.signed_at}`,
  ].join("\n");
}

/**
 * The filer of a filing carrying cross_server_identity: the attested agent, proven by its key.
 * §7.2 item 2: the attested agent must be the submitter of the submission disputed, so the filing
 * names one. 401 with details.reason when the proof fails.
 */
export async function crossServerFiler(ctx: Ctx, body: FileDisputeInput): Promise<Filer> {
  const proof = body.cross_server_identity!;
  if (!body.submission_id || body.submission_id === "any")
    throw new AppError("UNPROCESSABLE", "a cross-server filer names its own submission (AIP-4 §7.2)", {
      reason: "submission_required",
    });
  const message = crossServerProofMessage({
    server: new URL(ctx.deps.config.publicUrl).origin,
    dispute_type: body.dispute_type,
    mission_id: body.mission_id,
    submission_id: body.submission_id,
    attestation_url: proof.attestation_url,
    signed_at: proof.signed_at,
  });
  const id = await crossServerIdentity(ctx, { proof, message });
  if (!id.ok) throw new AppError("UNAUTHORIZED", `cross-server identity refused: ${id.detail}`, { reason: id.reason });
  if (body.filed_by && body.filed_by.toLowerCase() !== id.address)
    throw new AppError("FORBIDDEN", "filed_by must be the attested agent's address");
  return { address: id.address, crossServer: id.record };
}
