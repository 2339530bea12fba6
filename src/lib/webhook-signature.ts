import { createHmac, randomBytes } from "node:crypto";

// Standard Webhooks signing (https://www.standardwebhooks.com/, "Signature scheme"): the secret is
// `whsec_` + base64 of the key bytes; each delivery carries `webhook-id`, `webhook-timestamp`
// (integer Unix seconds) and `webhook-signature: v1,<base64 HMAC-SHA256(key, "{id}.{ts}.{body}")>`.

const SECRET_PREFIX = "whsec_";
/** The spec allows 24–64 key bytes; 32 is what its reference libraries generate. */
const SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

/** The HMAC key: the base64 after the `whsec_` prefix, decoded. */
function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
}

/** The `webhook-signature` value for one attempt (the timestamp is part of what is signed). */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac("sha256", secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers of one attempt. */
export function webhookHeaders(secret: string, id: string, at: Date, body: string): Record<string, string> {
  const ts = Math.floor(at.getTime() / 1000);
  return { "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": signWebhook(secret, id, ts, body) };
}
