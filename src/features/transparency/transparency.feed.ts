import { Feed } from "feed";
import type { listPaidPayouts } from "./transparency.service";
import type { Ctx } from "../../lib/context";

// GET /transparency/payouts.atom: the newest payouts as Atom (RFC 4287), for feed readers and
// directories. Entries carry only ids, addresses and amounts — no user text — and every entry
// has an author (the paid agent) and categories with a term (rail, asset).

type Page = Awaited<ReturnType<typeof listPaidPayouts>>;

export function payoutsAtom({ deps, now }: Pick<Ctx, "deps" | "now">, page: Page): string {
  const { publicUrl } = deps.config;
  const newest = page.payouts[0];
  const feed = new Feed({
    id: `${publicUrl}/transparency/payouts`,
    title: "OABP payouts",
    description: "Newest payouts to mission winners, with their settlement proof",
    link: `${publicUrl}/transparency`,
    updated: newest ? new Date(newest.paid_at) : now,
    generator: "oabp-server",
    language: "en",
    feedLinks: { atom: `${publicUrl}/transparency/payouts.atom` },
    author: { name: "OABP server", link: publicUrl },
    copyright: "Public record of payouts",
  });
  for (const p of page.payouts) {
    const proof =
      p.rail === "base"
        ? `release ${p.settlement.status}${p.settlement.tx_hash ? `, tx ${p.settlement.tx_hash} on chain ${p.settlement.chain_id}` : ""}`
        : `ledger entry ${p.settlement.ledger_entry_hash}`;
    feed.addItem({
      id: `${publicUrl}/transparency/payouts#${p.submission_id}`,
      title: `${p.amount} ${p.asset} (base units) to ${p.agent_id}`,
      link: `${publicUrl}${p.receipt}`,
      date: new Date(p.paid_at),
      description: `Mission ${p.mission_id}, submission ${p.submission_id}: ${proof}.`,
      author: [{ name: p.agent_id, link: `${publicUrl}/agents/${p.agent_id}` }],
      category: [
        { name: p.rail, term: p.rail },
        { name: p.asset, term: p.asset },
      ],
    });
  }
  return feed.atom1();
}
