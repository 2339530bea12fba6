/** @jsxImportSource hono/jsx */
import { z } from "zod";
import type { Deps } from "../../deps";
import { ctxForViewer } from "../../lib/context";
import { stableStringify } from "../../lib/idempotency";
import { ListMissionsQuery, listMissions, type ListMissionsFilters, type MissionWire } from "../missions";
import { formatAmount, relativeTime, STATUS_WORDS, verificationInWords } from "./web.format";
import { short } from "./web.layout";
import { VERIFICATION_TYPES, PUBLIC_STATUSES } from "../../db/vocabulary";

// The board: the same filters and search as GET /missions (the same service verb and
// query schema), keyset pages, and a sort applied within the page shown (docs/web.md: the list
// has one order, newest first; "sort" re-orders the page, it does not change what is on it).

export const SORTS = ["newest", "deadline", "reward"] as const;
export type Sort = (typeof SORTS)[number];
export const BOARD_PAGE_SIZE = 20;

export const BoardQuery = ListMissionsQuery.extend({
  limit: z.coerce.number().int().min(1).max(50).default(BOARD_PAGE_SIZE),
  sort: z.enum(SORTS).default("newest"),
});
export type BoardFilters = z.infer<typeof BoardQuery>;

/** Raw query → filters; empty form fields mean "no filter". Default: open missions. */
export function parseBoardQuery(
  raw: Record<string, string>,
): { ok: true; f: BoardFilters } | { ok: false; message: string } {
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, v]) => v.trim() !== ""));
  if (cleaned.status === "any") delete cleaned.status;
  else cleaned.status ??= "open";
  const r = BoardQuery.safeParse(cleaned);
  if (!r.success) {
    const i = r.error.issues[0];
    return { ok: false, message: `${i?.path.join(".") || "query"}: ${i?.message ?? "invalid"}` };
  }
  return { ok: true, f: r.data };
}

function sortPage(ms: MissionWire[], sort: Sort): MissionWire[] {
  if (sort === "deadline") return [...ms].sort((a, b) => a.deadline.localeCompare(b.deadline));
  if (sort === "reward")
    return [...ms].sort((a, b) =>
      BigInt(b.reward.amount) > BigInt(a.reward.amount)
        ? 1
        : BigInt(b.reward.amount) < BigInt(a.reward.amount)
          ? -1
          : 0,
    );
  return ms;
}

export function MissionItem(p: { m: MissionWire; deps: Deps; now: Date }) {
  const { m } = p;
  return (
    <li>
      <h2>
        <a href={`/m/${m.id}`}>{m.title}</a>
      </h2>
      <div class="facts">
        <span>
          Reward <strong>{formatAmount(m.reward.amount, m.reward.asset, p.deps.config.assets)}</strong> (
          {m.reward.chain})
        </span>
        <span>
          Deadline <time datetime={m.deadline}>{relativeTime(new Date(m.deadline), p.now)}</time>
        </span>
        <span class={`status status-${m.status}`}>{STATUS_WORDS[m.status] ?? m.status}</span>
        <span>
          {m.submission_count} submission{m.submission_count === 1 ? "" : "s"}
        </span>
        <span>
          by <a href={`/u/${m.creator}`}>{short(m.creator)}</a>
        </span>
      </div>
      <p class="small">{verificationInWords(m.verification.type, m.verification.params)}</p>
      {m.tags.length ? (
        <p>
          {m.tags.map((t) => (
            <a class="tag" href={`/?tag=${encodeURIComponent(t)}`}>
              {t}
            </a>
          ))}
        </p>
      ) : null}
    </li>
  );
}

function pageLink(f: BoardFilters, over: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  const all: Record<string, unknown> = { ...f, ...over };
  for (const [k, v] of Object.entries(all)) {
    if (v === undefined || v === null || v === "") continue;
    if (k === "limit" && v === BOARD_PAGE_SIZE) continue;
    if (k === "sort" && v === "newest") continue;
    q.set(k, Array.isArray(v) ? v.join(",") : String(v));
  }
  const s = q.toString();
  return s ? `/?${s}` : "/";
}

/**
 * The list part of the board as HTML, from the instance's mission-list cache (the same cache and
 * invalidation as GET /missions; a fragment with no per-viewer content, so it is shared).
 */
export function boardListHtml(deps: Deps, f: BoardFilters, now: Date): Promise<string> {
  // The countdown is rendered at minute precision, so the key carries the minute.
  const key = `web:board:${Math.floor(now.getTime() / 60_000)}:${stableStringify(f)}`;
  return deps.missionLists.get(key, async () => {
    const { sort, ...filters } = f;
    const page = await listMissions(ctxForViewer(deps, undefined, now), filters as ListMissionsFilters);
    const items = sortPage(page.missions, sort);
    const html = (
      <section aria-label="Missions">
        {items.length === 0 ? (
          <p>No missions match these filters.</p>
        ) : (
          <ul class="missions">
            {items.map((m) => (
              <MissionItem m={m} deps={deps} now={now} />
            ))}
          </ul>
        )}
        <nav class="pager" aria-label="Pages">
          {f.cursor ? <a href={pageLink(f, { cursor: undefined })}>First page</a> : null}
          {page.next_cursor ? (
            <a rel="next" href={pageLink(f, { cursor: page.next_cursor })}>
              Next page
            </a>
          ) : null}
        </nav>
      </section>
    );
    return html.toString();
  });
}

export function BoardFilters(p: { f?: BoardFilters | undefined; raw: Record<string, string> }) {
  const v = (k: string) => p.raw[k] ?? "";
  const status = p.raw.status ?? "open";
  return (
    <form class="filters" method="get" action="/" role="search">
      <label>
        Search
        <input type="search" name="q" value={v("q")} maxlength={200} />
      </label>
      <label>
        Status
        <select name="status">
          {[...PUBLIC_STATUSES, "any"].map((s) => (
            <option value={s} selected={status === s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label>
        Verification
        <select name="verification_type">
          <option value="">any</option>
          {VERIFICATION_TYPES.map((t) => (
            <option value={t} selected={v("verification_type") === t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label>
        Tag
        <input name="tag" value={v("tag")} maxlength={32} size={10} />
      </label>
      <label>
        Asset
        <input name="asset" value={v("asset")} maxlength={64} size={8} />
      </label>
      <label>
        Min reward (base units)
        <input name="reward_min" value={v("reward_min")} inputmode="numeric" size={12} />
      </label>
      <label>
        Sort
        <select name="sort">
          {SORTS.map((s) => (
            <option value={s} selected={(p.raw.sort ?? "newest") === s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Filter</button>
    </form>
  );
}
