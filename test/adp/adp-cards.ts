import * as ed from "@noble/ed25519";
import { cardSigningBytes } from "../../src/features/adp/adp.card";
import { ed25519FromDidKey } from "../../src/features/adp/adp.didkey";

// The ADP calls and cards the HTTP suites (adp.int.test.ts, adp-discover.int.test.ts) send.

export const DESCRIBE = "/adp/adp.describe";
export const ADVERTISE = "/adp/adp.advertise";
export const DISCOVER = "/adp/adp.discover";

/** ADP §3.2: the signature verifies with the key of the card's own did:key. */
export async function verifies(card: Record<string, unknown>): Promise<boolean> {
  const key = ed25519FromDidKey(card.did as string);
  if (!key || typeof card.signature !== "string") return false;
  return ed.verifyAsync(new Uint8Array(Buffer.from(card.signature, "base64url")), cardSigningBytes(card), key);
}

/** A translation agent's card for `address`, with its did and seq when given. */
export function cardFor(
  address: string,
  did: string | undefined,
  seq: number | undefined,
  over: Record<string, unknown> = {},
) {
  return {
    id: `agent://bot-${address.slice(2, 10)}`,
    name: `bot ${address.slice(2, 8)}`,
    description: "Chinese-English translation of legal contracts",
    version: "1.0.0",
    ...(did ? { did } : {}),
    skills: ["nlp/translation/zh", "python"],
    tools: [{ name: "translate", input_schema: { type: "object" }, idempotent: true }],
    endpoints: [{ protocol: "http+json", uri: "https://bot.example/v1", auth: "bearer" }],
    ...(seq !== undefined ? { seq } : {}),
    extensions: { oabp: { agent_id: address }, "x.vendor": { anything: [1, 2] } },
    ...over,
  };
}
