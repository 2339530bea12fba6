import { createHmac, timingSafeEqual } from "node:crypto";

// Verifying an OABP webhook delivery (Standard Webhooks; README "Webhooks"): headers
// webhook-id, webhook-timestamp, webhook-signature `v1,<base64 HMAC-SHA256(secret, "{id}.{ts}.{body}")>`.
// Outcomes are data: `{ok: false, reason}` with a stable reason, never a throw.

export type WebhookVerification =
  | { ok: true; id: string; timestamp: number; event: WebhookEvent }
  | {
      ok: false;
      reason: "missing_headers" | "bad_secret" | "timestamp_out_of_tolerance" | "bad_signature" | "malformed_body";
    };

/** An OABP event body: `{id: "evt_…", type, timestamp, data}` (README "Webhooks"). */
export interface WebhookEvent {
  id?: string;
  type?: string;
  timestamp?: string;
  data?: Record<string, unknown>;
  [k: string]: unknown;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;
const header = (h: HeaderSource, name: string): string | undefined => {
  if (h instanceof Headers) return h.get(name) ?? undefined;
  const v = h[name] ?? h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * `secret` is the `whsec_…` value returned once by `POST /webhooks`; `body` the raw request body
 * exactly as received (re-serialised JSON would not match). A delivery older or newer than
 * `toleranceSeconds` (default 300) is refused, so a captured one cannot be replayed later;
 * receivers still deduplicate on `id` (deliveries are at least once).
 */
export function verifyWebhook(
  secret: string,
  headers: HeaderSource,
  body: string | Uint8Array,
  opts: { now?: Date; toleranceSeconds?: number } = {},
): WebhookVerification {
  const id = header(headers, "webhook-id");
  const ts = header(headers, "webhook-timestamp");
  const sigs = header(headers, "webhook-signature");
  if (!id || !ts || !sigs || !/^\d{1,12}$/.test(ts)) return { ok: false, reason: "missing_headers" };
  if (!secret.startsWith("whsec_")) return { ok: false, reason: "bad_secret" };
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  if (key.length === 0) return { ok: false, reason: "bad_secret" };
  const timestamp = Number(ts);
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - timestamp) > (opts.toleranceSeconds ?? 300))
    return { ok: false, reason: "timestamp_out_of_tolerance" };
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  const expected = createHmac("sha256", key).update(`${id}.${ts}.${text}`).digest();
  const match = sigs.split(" ").some((s) => {
    const [version, value] = s.split(",", 2);
    if (version !== "v1" || !value) return false;
    const got = Buffer.from(value, "base64");
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
  if (!match) return { ok: false, reason: "bad_signature" };
  try {
    const event = JSON.parse(text);
    if (typeof event !== "object" || event === null || Array.isArray(event))
      return { ok: false, reason: "malformed_body" };
    return { ok: true, id, timestamp, event };
  } catch {
    return { ok: false, reason: "malformed_body" };
  }
}
