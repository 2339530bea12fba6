// The closed list of webhook events (AIP-1 §7 "Webhook: POST {subscriber_url} on
// mission create") and the envelope delivered for each. Payloads carry public data only — ids,
// types, statuses, timestamps, amounts as strings, links — never a deliverable, its URI or any
// secret: anything more is one GET away, behind that route's own visibility rules.

export const EVENT_TYPES = [
  "mission.created",
  "mission.resolved",
  "mission.voided",
  "submission.created",
  "submission.accepted",
  "submission.rejected",
  "payout.confirmed",
  // A deadline extension, a reward top-up or an edit was applied (docs/amendments.md).
  "mission.amended",
  // Mission Q&A: public thread entries, so their text may travel in the event.
  "question.asked",
  "question.answered",
  "mission.clarified",
  // base rail, delayed release path (docs/base-rail.md "Release paths"): a release proposed on
  // chain (executable after the challenge window), and a guardian's cancel of one (the payout waits).
  "payout.proposed",
  "payout.cancelled",
  // The funder took its escrow slot back on chain (docs/base-rail.md "Exits and governance").
  "mission.funder_exited",
  // An escrow movement or proposal no signed decision of the server explains (docs/custody.md):
  // for the creator, the winners and the operator.
  "custody.alert",
  // AIP-1 extension event (docs/events.md "mission.awarded"): a creator_judges award with an
  // appeal window was recorded — who won, and when it pays unless disputed (pays_at).
  "mission.awarded",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The envelope's `data`: the emitter's fields; ids named `mission_id` / `submission_id`. */
export type EventData = { mission_id: string; submission_id?: string } & Record<string, unknown>;

/** Absolute links derived from the ids in `data` (added when the body is frozen, at fan-out). */
function linksFor(publicUrl: string, type: EventType, data: EventData): Record<string, string> {
  const mission = `${publicUrl}/missions/${data.mission_id}`;
  const links: Record<string, string> = { mission };
  if (typeof data.question_id === "string") links.questions = `${mission}/questions`;
  if (data.submission_id) {
    links.submission = `${mission}/submissions/${data.submission_id}`;
    // §6.1: a paid submission of a resolved mission has a signed receipt.
    if (type === "payout.confirmed" || type === "submission.accepted")
      links.receipt = `${mission}/receipts/${data.submission_id}`;
  }
  return links;
}

/**
 * The delivered body, Standard Webhooks' recommended shape `{type, timestamp, data}` plus the
 * event `id` (= the `webhook-id` header). Built once per event; every attempt sends these bytes.
 */
export function envelope(publicUrl: string, e: { id: string; type: string; occurredAt: Date; data: string }): string {
  const data = JSON.parse(e.data) as EventData;
  const type = e.type as EventType;
  return JSON.stringify({
    id: e.id,
    type,
    timestamp: e.occurredAt.toISOString(),
    data: { ...data, links: linksFor(publicUrl, type, data) },
  });
}
