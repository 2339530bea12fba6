import { and, eq, inArray, sql } from "drizzle-orm";
import { agentBlocklist, missions } from "../../db/schema/index";
import { type Ctx, dbOf, viewerOf } from "../../lib/context";
import { sha256Hex } from "../../lib/hash";

// AIP-2 §4.1 in lists: a signed-in reader learns from each listed mission's
// `eligibility.viewer_blocked` whether it may submit, as the detail says (withViewerBlocked) —
// before a 403 at submit. The cached page is shared by every reader (viewer_blocked null), so a
// signed-in reader's copy is annotated after: two indexed reads for the page, never for anonymous
// readers. Own missions stay null, as on the detail.

type Doc = { etag: string; body: string | Uint8Array };
type ListedMission = { id: string; creator: string; eligibility?: { viewer_blocked?: boolean | null } };

export async function withViewerBlockedList(ctx: Ctx, doc: Doc): Promise<Doc> {
  const viewer = viewerOf(ctx);
  if (viewer === undefined) return doc;
  const text = typeof doc.body === "string" ? doc.body : Buffer.from(doc.body).toString("utf8");
  const page = JSON.parse(text) as { missions: ListedMission[] };
  const others = page.missions.filter((m) => m.creator !== viewer);
  if (others.length === 0) return doc;
  const db = dbOf(ctx);
  const [byCreator, byMission] = await Promise.all([
    db
      .select({ owner: agentBlocklist.owner })
      .from(agentBlocklist)
      .where(
        and(
          eq(agentBlocklist.blocked, viewer),
          inArray(agentBlocklist.owner, [...new Set(others.map((m) => m.creator))]),
        ),
      ),
    db
      .select({ id: missions.id })
      .from(missions)
      .where(
        and(
          inArray(
            missions.id,
            others.map((m) => m.id),
          ),
          sql`${viewer} = any(${missions.blockList})`,
        ),
      ),
  ]);
  const owners = new Set(byCreator.map((r) => r.owner));
  const ids = new Set(byMission.map((r) => r.id));
  for (const m of others) if (m.eligibility) m.eligibility.viewer_blocked = owners.has(m.creator) || ids.has(m.id);
  const body = JSON.stringify(page);
  return { etag: `W/"${sha256Hex(body).slice(0, 32)}"`, body };
}
