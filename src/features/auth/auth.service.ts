import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import { randomInt } from "node:crypto";
import { parseSiweMessage, validateSiweMessage } from "viem/siwe";
import { authNonces, authSessions, meshAgents, registryBindings } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { dbOf, withTx, type Ctx } from "../../lib/context";
import type { Identity } from "../../http/types";
import { normalizeAddress } from "../../lib/address";
import { AppError } from "../../lib/errors";
import type { Reason } from "../../lib/error-reasons";
import { constantTimeEqual, randomToken, sha256Hex } from "../../lib/hash";
import { recoverAttestationSigners, registryAttestationHash } from "../../lib/evm";
import { touchAgent } from "../../db/touch-agent";
import type { Db } from "../../db/client";
import { perDatabase } from "../../db/prepared";
import { notifiedCaches } from "../../db/notified-cache";

/** Agent Mesh API keys (issued by POST /agents/register) start with this. */
export const MESH_KEY_PREFIX = "oabp_mesh_";

const NONCE_TTL_MS = 5 * 60_000;
const CLOCK_SKEW_MS = 5 * 60_000;

const NONCE_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 24 characters of 62: log2(62^24) ≈ 142.9 bits. */
const NONCE_LENGTH = 24;

/**
 * EIP-4361 nonces are alphanumeric, ≥ 8 characters. viem's generateSiweNonce uses Math.random
 * (each nonce predictable from the last), so this draws every character from the CSPRNG
 * (crypto.randomInt: uniform, no modulo bias).
 */
function newSiweNonce(): string {
  let out = "";
  for (let i = 0; i < NONCE_LENGTH; i++) out += NONCE_ALPHABET[randomInt(NONCE_ALPHABET.length)];
  return out;
}

export async function issueNonce(
  ctx: Ctx,
): Promise<{ nonce: string; expires_at: string; domain: string; uri: string; chain_ids: number[] }> {
  const { deps, now } = ctx;
  const nonce = newSiweNonce();
  const expiresAt = new Date(now.getTime() + NONCE_TTL_MS);
  await dbOf(ctx).insert(authNonces).values({ nonce, issuedAt: now, expiresAt });
  return {
    nonce,
    expires_at: expiresAt.toISOString(),
    domain: siweDomain(deps),
    uri: deps.config.publicUrl,
    chain_ids: deps.config.siweChainIds,
  };
}

function sameOrigin(uri: string, publicUrl: string): boolean {
  try {
    return new URL(uri).origin === new URL(publicUrl).origin;
  } catch {
    return false;
  }
}

/** The SIWE `domain` this server accepts: the host of OABP_PUBLIC_URL. */
const siweDomain = (deps: Deps) => new URL(deps.config.publicUrl).host;

const siweFailure = (reason: Reason<"UNAUTHORIZED">, message: string) =>
  new AppError("UNAUTHORIZED", message, { reason });
type SiweFields = ReturnType<typeof parseSiweMessage> & { address: string; nonce: string };

/** The message's fields, when it is a complete EIP-4361 message. */
function parseSiwe(message: string): SiweFields {
  let fields: ReturnType<typeof parseSiweMessage>;
  try {
    fields = parseSiweMessage(message);
  } catch {
    throw siweFailure("malformed_message", "message is not an EIP-4361 message");
  }
  const { address, nonce, domain, chainId, uri, version } = fields;
  if (!address || !nonce || !domain || !chainId || !uri || version !== "1")
    throw siweFailure("malformed_message", "message is not a complete EIP-4361 message");
  return { ...fields, address, nonce };
}

/** Domain, resource, chain id and time window: the message is for this server, now. */
function checkSiweScope(deps: Deps, fields: SiweFields, now: Date) {
  const domain = siweDomain(deps);
  if (fields.domain !== domain) throw siweFailure("wrong_domain", `message domain must be ${domain}`);
  // EIP-4361 `uri`: the resource the session is for. It must be this server (OABP_PUBLIC_URL's
  // origin), so a message signed for another service cannot be replayed here.
  if (!sameOrigin(fields.uri ?? "", deps.config.publicUrl))
    throw siweFailure("wrong_uri", `message uri must be on ${new URL(deps.config.publicUrl).origin}`);
  if (!deps.config.siweChainIds.includes(fields.chainId ?? 0))
    throw siweFailure("wrong_chain", `chain id must be one of ${deps.config.siweChainIds.join(", ")}`);
  if (fields.issuedAt && fields.issuedAt.getTime() > now.getTime() + CLOCK_SKEW_MS)
    throw siweFailure("not_yet_valid", "issued-at is in the future");
  if (!validateSiweMessage({ message: fields, domain, time: now }))
    throw siweFailure("expired", "message is expired or not yet valid");
}

/**
 * EIP-4361 sign-in. Checks domain, chain id, time window, signature, then consumes the nonce
 * (conditional update: a nonce is used at most once even under concurrent sign-ins).
 */
export async function signInWithEthereum(ctx: Ctx, input: { message: string; signature: string }) {
  const { deps, now } = ctx;
  const fields = parseSiwe(input.message);
  checkSiweScope(deps, fields, now);
  const address = normalizeAddress(fields.address);
  if (!address) throw siweFailure("malformed_message", "address is not valid");
  if (!(await deps.evm.verifyPersonalSign(address, input.message, input.signature)))
    throw siweFailure("invalid_signature", "signature does not match the address");

  return withTx(ctx, async (tx) => {
    const used = await tx
      .update(authNonces)
      .set({ usedAt: now })
      .where(and(eq(authNonces.nonce, fields.nonce), isNull(authNonces.usedAt), gt(authNonces.expiresAt, now)))
      .returning({ nonce: authNonces.nonce });
    if (used.length === 0) throw siweFailure("invalid_nonce", "nonce is unknown, expired or already used");
    const token = `oabp_${randomToken(32)}`;
    const expiresAt = new Date(now.getTime() + deps.config.sessionTtlSeconds * 1000);
    await tx.insert(authSessions).values({ tokenHash: sha256Hex(token), agentId: address, createdAt: now, expiresAt });
    await touchAgent(tx, address, now);
    return { token, token_type: "Bearer" as const, agent_id: address, expires_at: expiresAt.toISOString() };
  });
}

export interface AttestationInput {
  api_key: string;
  profile?: string | undefined;
  evm_address: string;
  registry_domain: string;
  issued_at: string;
  ttl_seconds?: number | undefined;
  signature: string;
}

/** AIP-1 §1.4 registry attestation: verify against the configured registry key, then bind. */
export async function bindRegistryAttestation(ctx: Ctx, input: AttestationInput) {
  const { deps, now } = ctx;
  const domain = input.registry_domain.toLowerCase();
  const registry = deps.config.registries.find((r) => r.domain === domain);
  if (!registry)
    throw new AppError("FORBIDDEN", `registry ${domain} is not accepted by this server`, {
      reason: "unknown_registry",
    });
  const address = normalizeAddress(input.evm_address);
  if (!address) throw new AppError("INVALID_PARAMETER", "evm_address is not a valid address", { field: "evm_address" });
  const issuedAt = new Date(input.issued_at);
  if (Number.isNaN(issuedAt.getTime()))
    throw new AppError("INVALID_PARAMETER", "issued_at is not an ISO 8601 date", { field: "issued_at" });
  // ttl_seconds is outside the signed hash (§1.4): anyone replaying an attestation could stretch
  // it, so it is capped by the registry's configured max_ttl_seconds.
  const ttl = Math.min(input.ttl_seconds ?? 86_400, registry.max_ttl_seconds);
  const expiresAt = new Date(issuedAt.getTime() + ttl * 1000);
  if (issuedAt.getTime() > now.getTime() + CLOCK_SKEW_MS)
    throw new AppError("FORBIDDEN", "issued_at is in the future", { reason: "not_yet_valid" });
  if (expiresAt.getTime() <= now.getTime())
    throw new AppError("FORBIDDEN", "attestation has expired", { reason: "expired" });
  // The signed message uses the exact strings the registry sent (issued_at as given).
  const hash = registryAttestationHash(input.api_key, address, input.issued_at);
  const signers = await recoverAttestationSigners(hash, input.signature);
  if (!signers.includes(registry.signer)) {
    throw new AppError("FORBIDDEN", "signature does not verify against the registry's key", {
      reason: "invalid_signature",
    });
  }
  const apiKeyHash = sha256Hex(input.api_key);
  return withTx(ctx, async (tx) => {
    // One conditional upsert decides, so concurrent attestations cannot both pass a check made
    // before the write: the key is (re)bound only if it is free, expired, or held by the same
    // registry with an attestation no newer than this one. Otherwise nothing is written.
    const row = {
      apiKeyHash,
      registryDomain: domain,
      agentId: address,
      profile: input.profile ?? null,
      issuedAt,
      expiresAt,
      createdAt: now,
    };
    const won = await tx
      .insert(registryBindings)
      .values(row)
      .onConflictDoUpdate({
        target: registryBindings.apiKeyHash,
        set: row,
        setWhere: or(
          lte(registryBindings.expiresAt, now),
          and(eq(registryBindings.registryDomain, domain), lte(registryBindings.issuedAt, issuedAt)),
        ),
      })
      .returning({ key: registryBindings.apiKeyHash });
    if (won.length === 0) {
      const [existing] = await tx.select().from(registryBindings).where(eq(registryBindings.apiKeyHash, apiKeyHash));
      if (existing && existing.registryDomain !== domain)
        throw new AppError("CONFLICT", "this api_key is bound by another registry", { reason: "api_key_taken" });
      // A replayed older attestation must not take the key back from a newer binding.
      throw new AppError("CONFLICT", "a newer attestation for this api_key is already bound", {
        reason: "stale_attestation",
      });
    }
    await touchAgent(tx, address, now, false);
    return { bound: true as const, agent_id: address, registry_domain: domain, expires_at: expiresAt.toISOString() };
  });
}

// Every signed-in request needs its session: one prepared statement per database handle, and
// this instance's cache in front of it (src/db/notified-cache.ts). A sign-out notifies the token's
// hash on SESSION_REVOKED, which every instance's listener evicts on commit; a cached session is
// re-read at least every SESSION_RECHECK_MS anyway, and never used past its expiry
// (docs/decisions/storage.md "Sessions cached per instance").
const SESSION_REVOKED = "oabp_session_revoked";
const SESSION_RECHECK_MS = 5_000;
const sessionCacheOf = notifiedCaches<{ agentId: string; expiresAt: number }>(SESSION_REVOKED, {
  max: 10_000,
  what: "sign-in sessions",
});
const sessionQueries = perDatabase((db: Db) => ({
  agentOf: db
    .select({ agentId: authSessions.agentId, expiresAt: authSessions.expiresAt })
    .from(authSessions)
    .where(
      and(
        eq(authSessions.tokenHash, sql.placeholder("hash")),
        gt(authSessions.expiresAt, sql`${sql.placeholder("now")}::timestamptz`),
      ),
    )
    .prepare("oabp_session_agent"),
}));

/** Who is calling: admin token, SIWE session, or a registry-bound api_key; else anonymous. */
export async function resolveIdentity(
  deps: Deps,
  creds: { bearer?: string | undefined; apiKey?: string | undefined },
): Promise<Identity> {
  const now = deps.clock.now();
  const db = deps.database.db;
  if (creds.bearer) {
    if (deps.adminToken && constantTimeEqual(creds.bearer, deps.adminToken)) return { kind: "admin" };
    const agentId = await agentOfSession(deps, sha256Hex(creds.bearer));
    if (agentId === undefined) throw new AppError("UNAUTHORIZED", "bearer token is invalid or expired");
    return { kind: "agent", address: agentId, via: "session" };
  }
  if (creds.apiKey) {
    // A private mesh's shared key names no agent: the Mesh routes take the agent from the body.
    const shared = deps.config.meshPrivateNetwork ? deps.config.meshSharedKey : undefined;
    if (shared !== undefined && constantTimeEqual(creds.apiKey, shared))
      return { kind: "anonymous", reason: "mesh_shared_key" };
    // Agent Mesh keys (docs/neighbours.md "Agent Mesh") carry their own prefix: one lookup either way.
    if (creds.apiKey.startsWith(MESH_KEY_PREFIX)) {
      const [m] = await db
        .select({ agentId: meshAgents.agentId })
        .from(meshAgents)
        .where(eq(meshAgents.apiKeyHash, sha256Hex(creds.apiKey)));
      if (m) return { kind: "agent", address: m.agentId, via: "mesh" };
    }
    const [b] = await db
      .select({ agentId: registryBindings.agentId })
      .from(registryBindings)
      .where(and(eq(registryBindings.apiKeyHash, sha256Hex(creds.apiKey)), gt(registryBindings.expiresAt, now)));
    // §1.4 "No auto-binding": an unbound key is anonymous, never the registry's own address.
    if (!b) return { kind: "anonymous", reason: "unbound_api_key" };
    return { kind: "agent", address: b.agentId, via: "registry" };
  }
  return { kind: "anonymous", reason: "none" };
}

/**
 * The agent of a live SIWE session known by its token's hash (an MCP session signed in with the
 * sign_in tool keeps the hash, never the token); anonymous once it expired or was revoked.
 */
export async function identityOfSessionHash(deps: Deps, tokenHash: string): Promise<Identity> {
  const agentId = await agentOfSession(deps, tokenHash);
  return agentId !== undefined
    ? { kind: "agent", address: agentId, via: "session" }
    : { kind: "anonymous", reason: "none" };
}

/** The agent of the live session whose token hashes to `hash`: from this instance's cache, else read. */
async function agentOfSession(deps: Deps, hash: string): Promise<string | undefined> {
  const now = deps.clock.now();
  const at = now.getTime();
  const cache = sessionCacheOf(deps);
  const hit = cache.get(hash);
  if (hit && hit.value.expiresAt > at && at - hit.checkedAt < SESSION_RECHECK_MS) return hit.value.agentId;
  const startedAt = cache.generation;
  const [s] = await sessionQueries(deps.database.db).agentOf.execute({ hash, now: now.toISOString() });
  if (!s) {
    if (hit) cache.evict(hash);
    return undefined;
  }
  cache.set(hash, { agentId: s.agentId, expiresAt: s.expiresAt.getTime() }, at, startedAt);
  return s.agentId;
}

/**
 * Sign-out of a browser session: the token stops working at once, on every instance (the NOTIFY
 * in the same statement reaches every instance's session cache on commit).
 */
export async function revokeSession(ctx: Ctx, { token }: { token: string }): Promise<void> {
  const hash = sha256Hex(token);
  sessionCacheOf(ctx.deps).evict(hash);
  await dbOf(ctx).execute(sql`
    with gone as (delete from ${authSessions} where token_hash = ${hash} returning token_hash)
    select pg_notify(${SESSION_REVOKED}, token_hash) from gone`);
}
