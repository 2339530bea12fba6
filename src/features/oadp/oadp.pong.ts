import { sign } from "node:crypto";
import { eq, gte, sql } from "drizzle-orm";
import { agents, missions } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { type Ctx } from "../../lib/context";
import type { Config } from "../../env";
import { AGENT_PROTOCOL } from "../../http/middleware";
import { canonicalJson } from "../../lib/canonical-json";
import type { ReceiptKeyring } from "../../lib/receipt-keys";
import { AVAILABILITY_WINDOW_SECONDS } from "../heartbeats";
import { SERVER_NAME } from "../wellknown";
import type { PongWire } from "./oadp.schemas";

// The OADP PONG (docs/protocols/OADP-discovery.txt, "The Ping/Pong Handshake", "Verifying PONG
// Signatures"), signed with the receipt key registry (AIP-1 §6.1 keys): ed25519 over the RFC 8785
// bytes of the PONG without `signature`, base64url; `key_id` names a key published in
// /.well-known/agent-protocol.json. The PONG carries counts only — nothing about any one agent,
// whoever pings and at whatever privacy tier.

/** The counts are cached this long per server (a ping must not cost two count(*) each). */
const STATS_TTL_MS = 10_000;

const PONG_MESSAGE =
  "Welcome. This hub is an Open Agent Bounty Protocol (AIP-1) mission marketplace: open missions with escrowed rewards are at /missions; sign in with Ethereum (register_url) to claim, submit and get paid.";

function pongFeatures(config: Config): Record<string, boolean> {
  return {
    tasks: true, // missions are paid tasks
    missions: true,
    claims: true,
    submissions: true,
    reputation: true,
    reviews: true,
    heartbeats: true,
    receipts: true,
    webhooks: config.webhooksEnabled,
    federation: config.oadp.federationEnabled,
    messaging: false,
    memory: false,
  };
}

interface Stats {
  agentsOnline: number;
  openMissions: number;
}
const statsCache = new WeakMap<Deps, { at: number; stats: Stats }>();

async function stats(deps: Deps, now: Date): Promise<Stats> {
  const hit = statsCache.get(deps);
  if (hit && now.getTime() >= hit.at && now.getTime() - hit.at < STATS_TTL_MS) return hit.stats;
  const db = deps.database.db;
  const cutoff = new Date(now.getTime() - AVAILABILITY_WINDOW_SECONDS * 1000);
  const [[online], [open]] = await Promise.all([
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(agents)
      .where(gte(agents.lastSeenAt, cutoff)),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(missions)
      .where(eq(missions.status, "open")),
  ]);
  const fresh = { agentsOnline: Number(online?.n ?? 0), openMissions: Number(open?.n ?? 0) };
  statsCache.set(deps, { at: now.getTime(), stats: fresh });
  return fresh;
}

/** Signs a PONG body: adds `signature` over the JCS bytes of everything else (key_id included). */
function signPong(unsigned: Omit<PongWire, "signature">, keyring: ReceiptKeyring): PongWire {
  const bytes = new TextEncoder().encode(canonicalJson(unsigned));
  return { ...unsigned, signature: sign(null, bytes, keyring.active.privateKey).toString("base64url") };
}

/** POST /ping: the signed PONG. `nonce` is the only thing taken from the ping. */
export async function pong(ctx: Ctx, { nonce }: { nonce?: string | undefined }): Promise<PongWire> {
  const { deps, now } = ctx;
  const o = deps.config.publicUrl;
  const s = await stats(deps, now);
  return signPong(
    {
      pong: true,
      protocol: AGENT_PROTOCOL,
      hub: SERVER_NAME,
      hub_url: o,
      message: PONG_MESSAGE,
      register_url: `${o}/auth/siwe`,
      agents_online: s.agentsOnline,
      open_missions: s.openMissions,
      features: pongFeatures(deps.config),
      timestamp: now.toISOString(),
      nonce: nonce ?? null,
      key_id: deps.receiptKeys.active.keyId,
    },
    deps.receiptKeys,
  );
}
