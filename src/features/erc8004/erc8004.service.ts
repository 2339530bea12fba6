import { and, desc, eq, isNotNull } from "drizzle-orm";
import { erc8004Feedback, erc8004Identities } from "../../db/schema/index";
import type { Db } from "../../db/client";
import type { Config } from "../../env";

// What the API shows of the ERC-8004 writes (docs/erc-8004.md): the server's registrations for its
// registration file, and an agent's feedback entries for GET /agents/{id}.

/** The server's confirmed identity-registry entries (registration file `registrations`). */
export async function selfRegistrations(db: Db, config: Config) {
  const rail = config.baseRail;
  if (!rail) return [];
  const rows = await db
    .select({ registry: erc8004Identities.registry, agentId: erc8004Identities.agentId })
    .from(erc8004Identities)
    .where(
      and(
        eq(erc8004Identities.chainId, rail.chainId),
        eq(erc8004Identities.state, "confirmed"),
        isNotNull(erc8004Identities.agentId),
      ),
    );
  return rows.map((r) => ({ agentId: Number(r.agentId), agentRegistry: `eip155:${rail.chainId}:${r.registry}` }));
}

/** The most recent entries the agent's wire shows; the rest are on chain (readAllFeedback). */
const SHOWN = 20;

/** An agent's opt-in and the feedback entries written (or on their way) for its paid missions. */
export async function agentErc8004(db: Db, agent: { id: string; erc8004AgentId: string | null } | undefined) {
  if (!agent?.erc8004AgentId) return null;
  const rows = await db
    .select()
    .from(erc8004Feedback)
    .where(eq(erc8004Feedback.agentId, agent.id))
    .orderBy(desc(erc8004Feedback.createdAt))
    .limit(SHOWN);
  return {
    agent_id: agent.erc8004AgentId,
    feedback: rows.map((f) => ({
      mission_id: f.missionId,
      state: f.state,
      agent_registry: `eip155:${f.chainId}:${f.registry}`,
      feedback_index: f.feedbackIndex,
      tx_hash: f.state === "confirmed" ? f.txHash : null,
      release_tx: f.releaseTx,
      feedback_uri: f.feedbackUri,
      feedback_hash: f.feedbackHash,
    })),
  };
}
