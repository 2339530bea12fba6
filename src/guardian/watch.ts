import { createPublicClient, http, type Address, type Hex } from "viem";
import { missionEscrowAbi } from "../lib/abi/mission-escrow";
import { checkDecision } from "../lib/decision-sign";

// The guardian's watch (docs/runbooks.md "Guardian watch"; docs/custody.md): one pass reads the
// chain's ReleaseProposed logs and the server's public signed decisions, verifies every decision
// against the pinned receipt keys, and names every proposal still pending on chain that no
// verified release decision of its slot explains. No database, no server key: what the server's
// database says is exactly what this watch must not trust.

export interface GuardianConfig {
  rpcUrl: string;
  escrows: string[];
  serverUrl: string;
  /** Pinned receipt public keys (key id → raw ed25519 key, base64url). */
  keys: { key_id: string; public_key: string }[];
  fromBlock: bigint | null;
}

export interface GuardianAlarm {
  reason: "unexplained_proposal";
  contract: string;
  mission_key: string;
  funder: string;
  proposal_hash: string;
  recipients: string[];
  amounts: string[];
  fee: string;
  executable_at: string;
  tx_hash: string;
  block_number: number;
}

/** The server could not be read (down, or not answering decisions): an alarm of its own. */
export class ServerUnreadable extends Error {}

const SPAN = 2_000n; // public Base RPCs refuse wider eth_getLogs ranges
const MAX_PAGES = 1_000;

/** Every decision of the server's feed whose signature verifies against the pinned keys. */
async function verifiedDecisions(cfg: GuardianConfig, fetcher: typeof fetch = fetch) {
  const explained = new Set<string>();
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = new URL("/escrow/decisions", cfg.serverUrl);
    url.searchParams.set("limit", "500");
    if (cursor) url.searchParams.set("cursor", cursor);
    const res = await fetcher(url).catch((err: unknown) => {
      throw new ServerUnreadable(`GET ${url.href}: ${String(err)}`);
    });
    if (!res.ok) throw new ServerUnreadable(`GET ${url.href}: HTTP ${res.status}`);
    const body = (await res.json().catch(() => null)) as { decisions?: unknown[]; next_cursor?: string | null } | null;
    if (!body || !Array.isArray(body.decisions)) throw new ServerUnreadable(`GET ${url.href}: not a decision page`);
    for (const doc of body.decisions) {
      const v = checkDecision(doc, cfg.keys);
      if (!v.ok || v.decision.kind !== "release" || !v.decision.proposal_hash) continue;
      const d = v.decision;
      explained.add(`${d.escrow}:${d.mission_key}:${d.funder}:${d.proposal_hash}`.toLowerCase());
    }
    cursor = body.next_cursor ?? null;
    if (!cursor) break;
  }
  return explained;
}

/** One pass: the pending proposals no verified decision explains. */
export async function guardianPass(cfg: GuardianConfig, fetcher: typeof fetch = fetch): Promise<GuardianAlarm[]> {
  const client = createPublicClient({ transport: http(cfg.rpcUrl) });
  const latest = await client.getBlockNumber({ cacheTime: 0 });
  const from = cfg.fromBlock ?? (latest > SPAN ? latest - SPAN : 0n);
  const explained = await verifiedDecisions(cfg, fetcher);
  const alarms: GuardianAlarm[] = [];
  for (const escrow of cfg.escrows.map((e) => e.toLowerCase() as Address)) {
    for (let start = from; start <= latest; start += SPAN) {
      const end = start + SPAN - 1n < latest ? start + SPAN - 1n : latest;
      const logs = await client.getContractEvents({
        address: escrow,
        abi: missionEscrowAbi,
        eventName: "ReleaseProposed",
        fromBlock: start,
        toBlock: end,
        strict: true,
      });
      for (const l of logs) {
        const { missionKey, funder, proposalHash } = l.args;
        const slot = `${escrow}:${missionKey}:${funder}:${proposalHash}`.toLowerCase();
        if (explained.has(slot)) continue;
        // Only what is still pending can be cancelled: a cancelled or executed proposal is history.
        const [hash] = await client.readContract({
          address: escrow,
          abi: missionEscrowAbi,
          functionName: "proposalOf",
          args: [missionKey as Hex, funder],
        });
        if (hash.toLowerCase() !== proposalHash.toLowerCase()) continue;
        alarms.push({
          reason: "unexplained_proposal",
          contract: escrow,
          mission_key: missionKey.toLowerCase(),
          funder: funder.toLowerCase(),
          proposal_hash: proposalHash.toLowerCase(),
          recipients: l.args.recipients.map((r) => r.toLowerCase()),
          amounts: l.args.amounts.map(String),
          fee: l.args.fee.toString(),
          executable_at: new Date(Number(l.args.executableAt) * 1000).toISOString(),
          tx_hash: l.transactionHash.toLowerCase(),
          block_number: Number(l.blockNumber),
        });
      }
    }
  }
  return alarms;
}
