import { canonicalJson } from "../../lib/canonical-json";
import { sha256Hex } from "../../lib/hash";

// AIP-1 §6.1 security rules: a receipt MUST bind the immutable content_hash and MAY add
// mission_hash / submission_hash "for stronger auditability". Each is sha256 over the RFC 8785
// bytes of the record's immutable terms only — never the mutable description of state (status,
// counts, payout progress) — so anyone can recompute them from GET /missions/{id} and the
// submission as served, at any later time.

export interface MissionTerms {
  id: string;
  creator: string;
  title: string;
  description: string;
  reward: { asset: string; amount: string; chain: string };
  verification: { type: string; params: Record<string, unknown> };
  deadline: string;
  created_at: string;
}

export interface SubmissionTerms {
  id: string;
  mission_id: string;
  submitter: string;
  content_hash: string;
  submitted_at: string;
}

export const missionHash = (m: MissionTerms): string =>
  `sha256:${sha256Hex(canonicalJson({ id: m.id, creator: m.creator, title: m.title, description: m.description, reward: m.reward, verification: m.verification, deadline: m.deadline, created_at: m.created_at }))}`;

export const submissionHash = (s: SubmissionTerms): string =>
  `sha256:${sha256Hex(canonicalJson({ id: s.id, mission_id: s.mission_id, submitter: s.submitter, content_hash: s.content_hash, submitted_at: s.submitted_at }))}`;
