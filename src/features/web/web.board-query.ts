import { z } from "zod";
import type { AssetConfig } from "../../env";
import type { Ctx } from "../../lib/context";
import { ListMissionsQuery } from "../missions";
import { VERIFICATION_TYPES, PUBLIC_STATUSES } from "../../db/vocabulary";
import { assetOf, parseWholeUnits } from "./web.format";
import { words } from "./web.words";

// The board's query (docs/web.md "Pages"): the filters of GET /missions (the same query schema) as
// a person types them — rewards in whole units of an asset ("50" = 50 USDC), "ends within", the
// status in words — turned into the base-unit and date filters, or a sentence per field saying
// what to fix (for a list, its choices).

export const SORTS = ["newest", "deadline", "reward"] as const;
export type Sort = (typeof SORTS)[number];
export const SORT_WORDS: Record<Sort, string> = {
  newest: "Newest first",
  deadline: "Ending soonest",
  reward: "Biggest reward",
};
const BOARD_PAGE_SIZE = 20;
/** "Ends within" choices: the deadline_before filter, from the minute of the request. */
export const DUE = { "1d": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export const DUE_WORDS: Record<keyof typeof DUE, string> = { "1d": "a day", "7d": "a week", "30d": "a month" };

const BoardQuery = ListMissionsQuery.extend({
  limit: z.coerce.number().int().min(1).max(50).default(BOARD_PAGE_SIZE),
  sort: z.enum(SORTS).default("newest"),
});
export type BoardFilters = z.infer<typeof BoardQuery>;

/** The board's own fields (whole units, "ends within"); the base-unit and date filters are derived. */
const DERIVED = ["reward_min", "reward_max", "deadline_before", "deadline_after"];

/** Which form field a schema issue belongs to, and the word a person reads for it: every filter of the schema. */
const FIELD_WORDS: Record<string, string> = {
  q: "Search",
  status: "Status",
  verification_type: "How the winner is chosen",
  tag: "Tag",
  asset: "Asset",
  sort: "Sort",
  cursor: "Page",
  limit: "Page size",
  mission_type: "Mission type",
  creator: "Creator",
  reward_min: "Smallest reward",
  reward_max: "Largest reward",
  deadline_after: "Ends after",
  deadline_before: "Ends within",
  creator_min_paid_ratio: "Creator's paid share",
  creator_max_never_judged: "Creator's unjudged missions",
  due: "Ends within",
} satisfies Record<keyof BoardFilters | "due", string>;
const wordsFor = (key: string) => FIELD_WORDS[key] ?? "This field";

/** The choices of the filters chosen from a list, in the words the form shows them. */
const CHOICE_WORDS: Record<string, () => string[]> = {
  status: () => [...PUBLIC_STATUSES.map((s) => words.status(s)), "All"],
  verification_type: () => VERIFICATION_TYPES.map((t) => words.method(t)),
  sort: () => SORTS.map((s) => SORT_WORDS[s]),
  due: () => Object.values(DUE_WORDS),
};

const orList = (xs: string[]) => (xs.length < 2 ? xs.join("") : `${xs.slice(0, -1).join(", ")} or ${xs.at(-1)}`);

/** What is wrong with a filter's value, in words; for a list, the choices it offers. */
function choicesMessage(key: string, value: string | undefined): string {
  const choices = CHOICE_WORDS[key]?.();
  const shown = value === undefined ? "" : `“${value.slice(0, 40)}” `;
  if (!choices) return `${wordsFor(key)}: ${shown}is not a value the board understands.`;
  return `${wordsFor(key)}: ${shown}is not one of the choices; choose ${orList(choices)}.`;
}

export type BoardParse = { ok: true; f: BoardFilters } | { ok: false; errors: Record<string, string> };
export type Errors = Record<string, string>;

/** Status words a person may type for "every public status" (the form's own value is `any`). */
export const ANY_STATUS = ["any", "all"];

/** The typed form fields, without empties and derived filters; default status: open. */
function formFields(raw: Record<string, string>): Record<string, string> {
  const cleaned: Record<string, string> = Object.fromEntries(
    Object.entries(raw).filter(([k, v]) => v.trim() !== "" && !DERIVED.includes(k)),
  );
  if (ANY_STATUS.includes(cleaned.status?.toLowerCase() ?? "")) delete cleaned.status;
  else cleaned.status ??= "open";
  return cleaned;
}

/** Whole-unit reward bounds → the base-unit filters, in the chosen asset or the first this server settles. */
function rewardFilters(
  raw: Record<string, string>,
  cleaned: Record<string, string>,
  assets: AssetConfig[],
  errors: Errors,
) {
  const asset = cleaned.asset ? assetOf(cleaned.asset, assets) : assets[0];
  for (const [field, target] of [
    ["min_reward", "reward_min"],
    ["max_reward", "reward_max"],
  ] as const) {
    delete cleaned[field];
    const text = raw[field]?.trim();
    if (!text) continue;
    if (!asset) {
      errors.asset = "Choose an asset this board pays in.";
      continue;
    }
    const v = parseWholeUnits(text, asset);
    if (!v.ok) {
      errors[field] = v.message;
      continue;
    }
    cleaned[target] = v.value.toString();
    cleaned.asset ??= asset.symbol;
  }
}

/** "Ends within" → deadline_before, from the minute of the request. */
function dueFilter(cleaned: Record<string, string>, now: Date, errors: Errors) {
  const due = cleaned.due;
  delete cleaned.due;
  if (!due) return;
  if (!(due in DUE)) {
    errors.due = choicesMessage("due", due);
    return;
  }
  const minute = Math.floor(now.getTime() / 60_000) * 60_000;
  cleaned.deadline_before = new Date(minute + DUE[due as keyof typeof DUE]).toISOString();
}

/**
 * Raw query → filters; empty form fields mean "no filter". Default: open missions. "Ends within"
 * counts from the context's minute.
 */
export function parseBoardQuery(
  { now }: Pick<Ctx, "now">,
  { raw, assets }: { raw: Record<string, string>; assets: AssetConfig[] },
): BoardParse {
  const cleaned = formFields(raw);
  const errors: Errors = {};
  rewardFilters(raw, cleaned, assets, errors);
  dueFilter(cleaned, now, errors);
  const r = BoardQuery.safeParse(cleaned);
  for (const i of r.success ? [] : r.error.issues) {
    const key = String(i.path[0] ?? "q");
    errors[key] ??= choicesMessage(key, cleaned[key]);
  }
  if (Object.keys(errors).length || !r.success) return { ok: false, errors };
  return { ok: true, f: r.data };
}
