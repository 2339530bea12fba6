/** @jsxImportSource hono/jsx */
import type { Deps } from "../../deps";
import type { AssetConfig } from "../../env";
import { ctxForViewer } from "../../lib/context";
import { stableStringify } from "../../lib/idempotency";
import { listMissionsJson, type ListMissionsFilters, type MissionWire } from "../missions";
import { openRewardTotals } from "./web.stats";
import { VERIFICATION_TYPES, PUBLIC_STATUSES } from "../../db/vocabulary";
import { formatAmount } from "./web.format";
import {
  ANY_STATUS,
  DUE,
  DUE_WORDS,
  SORT_WORDS,
  SORTS,
  type BoardFilters,
  type Errors,
  type Sort,
} from "./web.board-query";
import { namesOf, type PageCtx, Person, When } from "./web.layout";
import { markdownToText } from "./web.markdown";
import { plural, words } from "./web.words";

// The board (docs/web.md): the same filters and search as GET /missions (the same service verb and
// query schema), keyset pages, and a sort applied within the page shown (the list has one order,
// newest first; "sort" re-orders the page, it does not change what is on it). What a person types
// is read in web.board-query.ts.

/** Card snippets: plain text from the Markdown description. */
const SNIPPET_CHARS = 160;

function sortPage(ms: MissionWire[], sort: Sort): MissionWire[] {
  if (sort === "deadline") return [...ms].sort((a, b) => a.deadline.localeCompare(b.deadline));
  if (sort === "reward")
    return [...ms].sort((a, b) => {
      const d = BigInt(b.reward.amount) - BigInt(a.reward.amount);
      return d > 0n ? 1 : d < 0n ? -1 : 0;
    });
  return ms;
}

/** When the mission ends, or what became of it: no countdown once it is decided. */
export function Deadline(p: { m: MissionWire; now: Date }) {
  const { m, now } = p;
  if (m.status === "open" || m.status === "pending_escrow")
    return new Date(m.deadline) > now ? (
      <span>
        Ends <When at={m.deadline} now={now} />
      </span>
    ) : (
      <span>
        Ended <When at={m.deadline} now={now} />
      </span>
    );
  return <span class={`status status-${m.status}`}>{words.status(m.status)}</span>;
}

function MissionCard(p: { m: MissionWire; deps: Deps; now: Date; name?: string | undefined }) {
  const { m } = p;
  return (
    <li>
      <p class="reward">{formatAmount(m.reward, p.deps.config.assets)}</p>
      <h2>
        <a href={`/m/${m.id}`}>{m.title}</a>
      </h2>
      <p class="snippet">{markdownToText(m.description, SNIPPET_CHARS)}</p>
      <div class="facts">
        <Deadline m={m} now={p.now} />
        <span>{plural(m.submission_count, "submission")}</span>
        <span>{words.method(m.verification.type)}</span>
        <Person id={m.creator} name={p.name} />
      </div>
      <Tags tags={m.tags} />
    </li>
  );
}

/** A mission's tags, each a link to the board filtered by it. */
export function Tags(p: { tags: string[] }) {
  if (p.tags.length === 0) return null;
  return (
    <p class="tags">
      {p.tags.map((t) => (
        <a class="tag" href={`/?tag=${encodeURIComponent(t)}`}>
          {t}
        </a>
      ))}
    </p>
  );
}

/** The board's URL for these raw form values with some changed (pages keep the filters). */
function pageLink(raw: Record<string, string>, over: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...raw, ...over })) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `/?${s}` : "/";
}

/**
 * The list part of the board as HTML, from the instance's mission-list cache (the same cache and
 * invalidation as GET /missions; a fragment with no per-viewer content, so it is shared).
 */
export function boardListHtml(
  { deps, now }: Pick<PageCtx, "deps" | "now">,
  { f, raw }: { f: BoardFilters; raw: Record<string, string> },
): Promise<string> {
  // The countdown is rendered at minute precision, so the key carries the minute.
  const key = `web:board:${Math.floor(now.getTime() / 60_000)}:${stableStringify(f)}`;
  return deps.missionLists.get(key, async () => {
    const { sort, ...filters } = f;
    const reader = ctxForViewer(deps, undefined, now);
    // The same cached page as GET /missions (one narrow read into the mission documents on a miss).
    const page = JSON.parse(await listMissionsJson(reader, filters as ListMissionsFilters)) as {
      missions: MissionWire[];
      next_cursor: string | null;
    };
    const items = sortPage(page.missions, sort);
    const names = await namesOf(
      { deps, now },
      items.map((m) => m.creator),
    );
    const html = (
      <section aria-label="Missions">
        {items.length === 0 ? (
          <p>No missions match these filters.</p>
        ) : (
          <ul class="missions">
            {items.map((m) => (
              <MissionCard m={m} deps={deps} now={now} name={names.get(m.creator)} />
            ))}
          </ul>
        )}
        <nav class="pager" aria-label="Pages">
          {f.cursor ? <a href={pageLink(raw, { cursor: undefined })}>First page</a> : null}
          {page.next_cursor ? (
            <a rel="next" href={pageLink(raw, { cursor: page.next_cursor })}>
              Next page
            </a>
          ) : null}
        </nav>
      </section>
    );
    return html.toString();
  });
}

/** "12 open missions · 4,500 USDC in rewards": the board's headline, shared per minute. */
export function boardSummaryHtml({ deps, now }: Pick<PageCtx, "deps" | "now">): Promise<string> {
  return deps.missionLists.get(`web:summary:${Math.floor(now.getTime() / 60_000)}`, async () => {
    const rows = await openRewardTotals(ctxForViewer(deps, undefined, now));
    const count = rows.reduce((s, r) => s + r.count, 0);
    const html = (
      <p class="summary">
        <strong>{plural(count, "open mission")}</strong>
        {rows.length ? " · " : ""}
        {rows.map((r, i) => (
          <span>
            {i ? " + " : ""}
            <strong>{formatAmount({ amount: r.total, asset: r.asset }, deps.config.assets)}</strong>
          </span>
        ))}
        {rows.length ? " in rewards waiting" : ""}
      </p>
    );
    return html.toString();
  });
}

function Field(p: { label: string; name: string; errors: Record<string, string>; children: unknown }) {
  const err = p.errors[p.name];
  return (
    <label>
      {p.label}
      {p.children}
      {err ? (
        <span class="field-error" id={`err-${p.name}`}>
          {err}
        </span>
      ) : null}
    </label>
  );
}

/** The attributes that tie a field to its error message, when it has one. */
const invalidAttrs = (errors: Errors, k: string) =>
  errors[k] ? { "aria-invalid": "true", "aria-describedby": `err-${k}` } : {};

/** A filter chosen from a list: options as [value, words], after an optional "any" of no value. */
function Choice(p: {
  label: string;
  name: string;
  errors: Errors;
  options: [string, string][];
  chosen: string;
  any?: string;
}) {
  return (
    <Field label={p.label} name={p.name} errors={p.errors}>
      <select name={p.name} {...invalidAttrs(p.errors, p.name)}>
        {p.any ? <option value="">{p.any}</option> : null}
        {p.options.map(([value, text]) => (
          <option value={value} selected={p.chosen === value}>
            {text}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function BoardForm(p: { raw: Record<string, string>; assets: AssetConfig[]; errors?: Record<string, string> }) {
  const v = (k: string) => p.raw[k] ?? "";
  const errors = p.errors ?? {};
  const asset = p.assets.find((a) => a.symbol.toLowerCase() === v("asset").toLowerCase())?.symbol ?? "";
  // Folded (a <details>, no script needed) so a phone's first screen shows missions; unfolded when
  // a filter is set or needs a fix (docs/web.md "Phones").
  const active = Object.entries(p.raw).filter(([k, v]) => v.trim() !== "" && k !== "cursor" && k !== "limit").length;
  return (
    <details class="filters-box" open={active > 0 || Object.keys(errors).length > 0}>
      <summary>
        {active ? `Search and filters (${plural(active, { one: "set", many: "set" })})` : "Search and filters"}
      </summary>
      <BoardFields {...p} errors={errors} asset={asset} />
    </details>
  );
}

function BoardFields(p: { raw: Record<string, string>; assets: AssetConfig[]; errors: Errors; asset: string }) {
  const v = (k: string) => p.raw[k] ?? "";
  const { errors, asset } = p;
  const invalid = (k: string) => invalidAttrs(errors, k);
  const status = ANY_STATUS.includes(v("status").toLowerCase()) ? "any" : (p.raw.status ?? "open");
  return (
    <form class="filters" method="get" action="/" role="search">
      {Object.keys(errors).length ? (
        <p class="form-error" role="alert">
          Some filters need a fix: {Object.values(errors).join(" ")}
        </p>
      ) : null}
      <Field label="Search" name="q" errors={errors}>
        <input type="search" name="q" value={v("q")} maxlength={200} {...invalid("q")} />
      </Field>
      <Field label="Tag" name="tag" errors={errors}>
        <input name="tag" value={v("tag")} maxlength={32} size={10} {...invalid("tag")} />
      </Field>
      <Field label="Reward from" name="min_reward" errors={errors}>
        <input name="min_reward" value={v("min_reward")} inputmode="decimal" size={7} {...invalid("min_reward")} />
      </Field>
      <Field label="Reward up to" name="max_reward" errors={errors}>
        <input name="max_reward" value={v("max_reward")} inputmode="decimal" size={7} {...invalid("max_reward")} />
      </Field>
      <Choice
        label="Paid in"
        name="asset"
        errors={errors}
        any="any asset"
        options={p.assets.map((a) => [a.symbol, a.symbol])}
        chosen={asset}
      />
      <Choice
        label="Ends within"
        name="due"
        errors={errors}
        any="any time"
        options={(Object.keys(DUE) as (keyof typeof DUE)[]).map((d) => [d, DUE_WORDS[d]])}
        chosen={v("due")}
      />
      <Choice
        label="Status"
        name="status"
        errors={errors}
        options={[...PUBLIC_STATUSES.map((s): [string, string] => [s, words.status(s)]), ["any", "All"]]}
        chosen={status}
      />
      <Choice
        label="Winner chosen by"
        name="verification_type"
        errors={errors}
        any="any rule"
        options={VERIFICATION_TYPES.map((t) => [t, words.method(t)])}
        chosen={v("verification_type")}
      />
      <Choice
        label="Sort"
        name="sort"
        errors={errors}
        options={SORTS.map((s) => [s, SORT_WORDS[s]])}
        chosen={p.raw.sort ?? "newest"}
      />
      <button type="submit">Filter</button>
    </form>
  );
}
