import { createHash, sign } from "node:crypto";
import { sql } from "drizzle-orm";
import { adpServerCard } from "../../db/schema/index";
import type { Deps } from "../../deps";
import type { Config } from "../../env";
import { canonicalJson } from "../../lib/canonical-json";
import type { ReceiptKeyring } from "../../lib/receipt-keys";
import { AIPS } from "../manifest";
import { SERVER_NAME } from "../wellknown";
import { cardSigningBytes, OABP_EXTENSION } from "./adp.card";
import { didKeyFromEd25519 } from "./adp.didkey";
import { serverTools } from "./adp.tools";
import pkg from "../../../package.json" with { type: "json" };

/** ADP: `metadata.ttl` of the server's own Agent Card (how long consumers may keep it). */
const ADP_CARD_TTL_SECONDS = 3600;

// The server's own ADP Agent Card (§3), signed per §3.2 with the receipt signing key registry
// (AIP-1 §6.1 keys): its `did` is the did:key of the active receipt key, so a consumer verifies it
// with nothing but the card (JCS without `signature`, Ed25519, base64url), and can cross-check the
// key in /.well-known/oabp.json `receipt_signing_keys` under `extensions.oabp.key_id`.
// Served at its own path: the AIP-1 §9.3 paths carry the A2A card.

export const ADP_CARD_PATH = "/.well-known/adp-agent-card.json";
/** HTTP binding of the ADP methods (§4): POST `${base}/${method}`, the method's JSON body in and out. */
export const ADP_BASE_PATH = "/adp";
export const ADP_METHODS = { describe: "adp.describe", advertise: "adp.advertise", discover: "adp.discover" } as const;
const SELF = "self";

/** The card without seq, signature and timestamps: what decides whether seq must move. */
function serverCardContent(config: Config, keyring: ReceiptKeyring) {
  const o = config.publicUrl;
  const active = keyring.published.find((k) => k.key_id === keyring.active.keyId)!;
  const tools = serverTools();
  const methodsUri = `${o}${ADP_BASE_PATH}`;
  return {
    id: `agent://${new URL(o).host}`,
    name: SERVER_NAME,
    description:
      "Open Agent Bounty Protocol (AIP-1) mission marketplace: agents find missions with escrowed rewards, submit work, get verified and paid with a signed receipt; ADP directory of agent cards with five-factor discovery.",
    version: pkg.version,
    did: didKeyFromEd25519(Buffer.from(active.public_key, "base64url")),
    skills: ["marketplace/missions", "marketplace/escrow", "marketplace/reputation", "retrieval/agent-directory"],
    tools,
    endpoints: [
      { protocol: "http+json", uri: methodsUri, methods: [ADP_METHODS.describe, ADP_METHODS.discover], auth: "none" },
      // adp.advertise: a SIWE bearer session, or a card signed by an already bound did:key.
      { protocol: "http+json", uri: methodsUri, methods: [ADP_METHODS.advertise], auth: "bearer" },
      { protocol: "mcp", uri: `${o}/mcp`, methods: tools.map((t) => t.name), auth: "bearer", priority: 10 },
    ],
    constraints: { supported_languages: ["en"] },
    metadata: { ttl: ADP_CARD_TTL_SECONDS },
    extensions: {
      [OABP_EXTENSION]: {
        aip_supported: [...AIPS],
        manifest: `${o}/.well-known/oabp.json`,
        openapi: `${o}/openapi.json`,
        key_id: keyring.active.keyId,
        method_binding: `POST ${methodsUri}/{method}`,
      },
    },
  };
}

const hashOf = (content: unknown) => `sha256:${createHash("sha256").update(canonicalJson(content)).digest("hex")}`;

/**
 * The seq of this content: 1 the first time, +1 whenever the content hash changes (one
 * conditional upsert, so instances starting together agree), unchanged otherwise.
 */
async function seqFor(deps: Deps, contentHash: string) {
  const db = deps.database.db;
  const now = deps.clock.now();
  const [moved] = await db
    .insert(adpServerCard)
    .values({ id: SELF, contentHash, seq: 1, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: adpServerCard.id,
      set: { contentHash, seq: sql`${adpServerCard.seq} + 1`, updatedAt: now },
      setWhere: sql`${adpServerCard.contentHash} <> ${contentHash}`,
    })
    .returning();
  if (moved) return moved;
  const [row] = await db
    .select()
    .from(adpServerCard)
    .where(sql`${adpServerCard.id} = ${SELF}`);
  return row!;
}

export async function buildServerCard(deps: Deps): Promise<Record<string, unknown>> {
  const content = serverCardContent(deps.config, deps.receiptKeys);
  const row = await seqFor(deps, hashOf(content));
  const card = {
    ...content,
    metadata: { created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString(), ...content.metadata },
    seq: row.seq,
  };
  const signature = sign(null, cardSigningBytes(card), deps.receiptKeys.active.privateKey).toString("base64url");
  return { ...card, signature };
}

// Built once per keyring (a rotation means a restart, as for the manifest); a failed build is
// forgotten so the next request tries again.
const cache = new WeakMap<ReceiptKeyring, Promise<Record<string, unknown>>>();
export function serverCard(deps: Deps): Promise<Record<string, unknown>> {
  let hit = cache.get(deps.receiptKeys);
  if (!hit) {
    hit = buildServerCard(deps);
    cache.set(deps.receiptKeys, hit);
    hit.catch(() => cache.delete(deps.receiptKeys));
  }
  return hit;
}
