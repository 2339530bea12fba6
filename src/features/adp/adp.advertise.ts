import { and, eq, sql } from "drizzle-orm";
import { assertNotSuspended } from "../../db/suspension";
import { adpCards } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { dbOf, viewerOf, type Ctx } from "../../lib/context";
import { normalizeAddress } from "../../lib/address";
import { AppError } from "../../lib/errors";
import { pgCode } from "../../lib/idempotency";
import {
  type AgentCard,
  canonicalCard,
  isRevocation,
  MAX_CARD_BYTES,
  OABP_EXTENSION,
  verifyCardSignature,
} from "./adp.card";
import { skillPaths } from "./adp.tags";
import { cardWords } from "./adp.words";

// adp.advertise (ADP §4.2): an agent pushes its Agent Card to this directory. A card is bound to
// the agent's EVM identity in one of two ways (README "Protocol decisions"):
// - a SIWE session (or registry api_key): the caller's address; the card may be signed or not;
// - no session: the card is signed (§3.2) by the did:key already bound to the address it names in
//   `extensions.oabp.agent_id` — a binding only a session can create, so a relay can re-push an
//   agent's newer signed card but nobody can claim an address with a key of their own.
// Replacement follows §3.2/§7.3, decided by one conditional statement (never read-then-write):
// a stored card with a seq is replaced only by a strictly higher seq, and a signed card is never
// replaced by an unsigned one, whatever its seq.

const ADVERTISE_REASONS = {
  authenticationRequired: "authentication_required",
  tooLarge: "card_too_large",
  badBinding: "invalid_agent_binding",
  bindingRequired: "agent_binding_required",
  seqRequired: "seq_required",
  agentMismatch: "agent_mismatch",
  didNotBound: "did_not_bound",
  didBoundElsewhere: "did_bound_elsewhere",
  staleSeq: "stale_seq",
  unsignedOverSigned: "unsigned_over_signed",
} as const;

export interface AdvertiseResult {
  stored: true;
  agent_id: string;
  card_id: string;
  seq: number | null;
  signed: boolean;
  revoked: boolean;
  /** The stored card was already exactly this one (a retry). */
  unchanged: boolean;
}

/** extensions.oabp.agent_id as a normalised address; undefined when absent. */
function boundAgentId(card: AgentCard): string | undefined {
  const ext = card.extensions?.[OABP_EXTENSION];
  if (!ext || ext.agent_id === undefined) return undefined;
  const id = typeof ext.agent_id === "string" ? normalizeAddress(ext.agent_id) : null;
  if (!id)
    throw new AppError("INVALID_PARAMETER", `extensions.${OABP_EXTENSION}.agent_id must be a 0x EVM address`, {
      field: `extensions.${OABP_EXTENSION}.agent_id`,
      reason: ADVERTISE_REASONS.badBinding,
    });
  return id;
}

async function checkSignature(card: AgentCard, bound: string | undefined): Promise<void> {
  if (card.seq === undefined)
    throw new AppError("INVALID_PARAMETER", "a signed card must carry seq (ADP §3.2, §7.3)", {
      field: "seq",
      reason: ADVERTISE_REASONS.seqRequired,
    });
  if (!bound) {
    throw new AppError(
      "INVALID_PARAMETER",
      `a signed card must name the agent it is bound to in extensions.${OABP_EXTENSION}.agent_id, so the signature covers the binding`,
      { field: `extensions.${OABP_EXTENSION}.agent_id`, reason: ADVERTISE_REASONS.bindingRequired },
    );
  }
  const v = await verifyCardSignature(card);
  if (v.ok) return;
  if (v.reason === "did_required")
    throw new AppError("INVALID_PARAMETER", "a signed card must carry its did (an Ed25519 did:key)", {
      field: "did",
      reason: v.reason,
    });
  if (v.reason === "unsupported_did")
    throw new AppError("UNPROCESSABLE", "did must be an Ed25519 did:key (did:key:z6Mk…)", {
      field: "did",
      reason: v.reason,
    });
  // §3.2: "If verification fails, the consumer MUST discard the card."
  throw new AppError(
    "UNPROCESSABLE",
    "the card's signature does not verify against its did:key (JCS of the card without signature, Ed25519)",
    { field: "signature", reason: v.reason },
  );
}

export async function advertise(ctx: Ctx, card: AgentCard): Promise<AdvertiseResult> {
  const { now } = ctx;
  const { caller, signed, text, size, agentId } = await admitCard(ctx, card);
  // A suspended agent advertises nothing (signed in or by its bound key; docs/moderation.md "Suspension").
  await assertNotSuspended(ctx.deps.database.db, agentId, now);
  const skills = card.skills ?? [];
  const fields = {
    cardId: card.id,
    name: card.name,
    did: signed ? card.did! : null,
    seq: card.seq ?? null,
    signed,
    card: text,
    sizeBytes: size,
    skills,
    skillPaths: skillPaths(skills),
    words: cardWords({ name: card.name, description: card.description, skills }),
    maxConcurrentTasks: card.constraints?.max_concurrent_tasks ?? null,
    revoked: isRevocation(card),
    updatedAt: now,
  };
  const wrote = await writeCard(ctx, { agentId, bySession: caller !== undefined, fields });
  const result = {
    stored: true as const,
    agent_id: agentId,
    card_id: card.id,
    seq: fields.seq,
    signed,
    revoked: fields.revoked,
  };
  if (wrote.length > 0) return { ...result, unchanged: false };
  return refusal(
    ctx.deps,
    agentId,
    { text, signed, did: fields.did, seq: fields.seq, bySession: caller !== undefined },
    result,
  );
}

/** Who may advertise this card, and its canonical text: a session, or a signature by the bound key. */
async function admitCard(ctx: Ctx, card: AgentCard) {
  const caller = viewerOf(ctx);
  const signed = card.signature !== undefined;
  if (!caller && !signed) {
    throw new AppError(
      "UNAUTHORIZED",
      "advertise with a SIWE session (Authorization: Bearer), or send a card signed by your bound did:key",
      { reason: ADVERTISE_REASONS.authenticationRequired },
    );
  }
  const text = canonicalCard(card);
  const size = Buffer.byteLength(text, "utf8");
  if (size > MAX_CARD_BYTES) {
    throw new AppError("PAYLOAD_TOO_LARGE", `an Agent Card is at most ${MAX_CARD_BYTES} bytes (ADP §7.6)`, {
      reason: ADVERTISE_REASONS.tooLarge,
      size_bytes: size,
      limit_bytes: MAX_CARD_BYTES,
    });
  }
  const bound = boundAgentId(card);
  if (signed) await checkSignature(card, bound);
  if (caller && bound && bound !== caller) {
    throw new AppError(
      "FORBIDDEN",
      `extensions.${OABP_EXTENSION}.agent_id names another agent than the signed-in one`,
      { reason: ADVERTISE_REASONS.agentMismatch },
    );
  }
  return { caller, signed, text, size, agentId: caller ?? bound! };
}

type CardFields = Omit<typeof adpCards.$inferInsert, "agentId" | "createdAt"> & {
  did: string | null;
  seq: number | null;
};

/** One conditional statement: the §3.2/§7.3 replacement rule decided on the row as it is. */
async function writeCard(
  ctx: Ctx,
  input: { agentId: string; bySession: boolean; fields: CardFields },
): Promise<{ agentId: string }[]> {
  const { agentId, fields } = input;
  const db = dbOf(ctx);
  try {
    return input.bySession
      ? await db
          .insert(adpCards)
          .values({ agentId, createdAt: ctx.now, ...fields })
          .onConflictDoUpdate({
            target: adpCards.agentId,
            set: fields,
            // §3.2/§7.3, decided on the row as it is when the statement runs.
            setWhere: sql`(${adpCards.seq} is null or (excluded.seq is not null and excluded.seq > ${adpCards.seq})) and (not ${adpCards.signed} or excluded.signed)`,
          })
          .returning({ agentId: adpCards.agentId })
      : await db
          .update(adpCards)
          .set(fields)
          // Signature only: the did must be the one bound to this address (did is set on signed
          // rows only, whose seq is never null).
          .where(
            and(eq(adpCards.agentId, agentId), eq(adpCards.did, fields.did!), sql`${adpCards.seq} < ${fields.seq}`),
          )
          .returning({ agentId: adpCards.agentId });
  } catch (e) {
    if (pgCode(e) === "23505") {
      throw new AppError("CONFLICT", "this did:key is bound to another agent", {
        field: "did",
        reason: ADVERTISE_REASONS.didBoundElsewhere,
      });
    }
    throw e;
  }
}

/** Nothing was written: a retry of the stored card, or the rule that refused it. */
async function refusal(
  deps: Deps,
  agentId: string,
  card: { text: string; signed: boolean; did: string | null; seq: number | null; bySession: boolean },
  result: Omit<AdvertiseResult, "unchanged">,
): Promise<AdvertiseResult> {
  const [current] = await deps.database.db
    .select({ card: adpCards.card, did: adpCards.did, seq: adpCards.seq, signed: adpCards.signed })
    .from(adpCards)
    .where(eq(adpCards.agentId, agentId));
  if (current?.card === card.text) return { ...result, unchanged: true };
  if (!card.bySession && (!current || current.did !== card.did)) {
    throw new AppError(
      "UNAUTHORIZED",
      "this did:key is not bound to that agent: advertise once with a SIWE session to bind it",
      { reason: ADVERTISE_REASONS.didNotBound },
    );
  }
  const details = { current_seq: current?.seq ?? null, seq: card.seq };
  if (current?.signed && !card.signed) {
    throw new AppError("CONFLICT", "an unsigned card never replaces a signed one (ADP §3.2)", {
      reason: ADVERTISE_REASONS.unsignedOverSigned,
      ...details,
    });
  }
  throw new AppError("CONFLICT", "stale card: seq must be higher than the stored card's (ADP §3.2, §7.3)", {
    reason: ADVERTISE_REASONS.staleSeq,
    ...details,
  });
}
