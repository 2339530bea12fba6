import { z } from "zod";
import type { AssetConfig } from "../../env";
import { AppError } from "../../lib/errors";
import { CreateMissionRequest } from "../missions";
import { exactTime, formatAmount, parseWholeUnits } from "./web.format";

// The post form, read on the server (docs/web.md "Posting"): the fields as a person filled them —
// the reward in whole units of the asset ("25" = 25 USDC, "0.5"), tags as a comma list, the
// judging choices in words — turned into the request POST /missions takes (base units, AIP-1 §2),
// or one sentence per field saying what to fix, with the numbers the person needs.

/** The form's fields (names of the inputs in web.post.tsx); every one a string as typed. */
const POST_FIELDS = [
  "title",
  "description",
  "amount",
  "asset",
  "chain",
  "deadline",
  "verification",
  "expected",
  "judging_window",
  "appeal",
  "tags",
] as const;
export type PostField = (typeof POST_FIELDS)[number];
export type FieldErrors = Partial<Record<PostField, string>>;

/**
 * The body the page script sends: the form's fields only (another is a 400 naming it, never
 * dropped), each bounded before anything reads it.
 */
export const PostFormBody = z
  .object(
    Object.fromEntries(POST_FIELDS.map((k) => [k, z.string().max(60_000).optional()])) as Record<
      PostField,
      z.ZodOptional<z.ZodString>
    >,
  )
  .strict();
export type PostFormFields = z.infer<typeof PostFormBody>;

/** Windows a creator may pick from besides the board's own (creator_judges judging_window_seconds). */
export const JUDGING_WINDOWS = [1, 3, 7, 14, 30].map((days) => days * 86_400);

const TAG = /^[a-z0-9][a-z0-9._-]{0,31}$/;
const MAX_TAGS = 10;

interface FormConfig {
  assets: AssetConfig[];
  baseRail: boolean;
  now: Date;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };
const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

function assetOf(f: PostFormFields, assets: AssetConfig[]): Parsed<AssetConfig> {
  const asset = assets.find((a) => a.symbol === (f.asset || assets[0]?.symbol));
  if (!asset) return fail(`Choose what the reward is paid in: ${assets.map((a) => a.symbol).join(" or ")}.`);
  return { ok: true, value: asset };
}

function amountOf(text: string | undefined, asset: AssetConfig): Parsed<bigint> {
  const t = (text ?? "").trim();
  if (!t) return fail(`Enter the reward in ${asset.symbol}, like 25 or 0.5.`);
  const v = parseWholeUnits(t, asset);
  if (!v.ok) return v;
  if (v.value === 0n) return fail(`The reward must be more than 0 ${asset.symbol}.`);
  return v;
}

function deadlineOf(text: string | undefined, now: Date): Parsed<string> {
  const at = new Date(text ?? "");
  if (!text || Number.isNaN(at.getTime())) return fail("Pick the date and time answers are due.");
  if (at.getTime() <= now.getTime())
    return fail(`The deadline must be later than now (${exactTime(now)}); pick a later day or time.`);
  return { ok: true, value: at.toISOString() };
}

function tagsOf(text: string | undefined): Parsed<string[]> {
  const tags = (text ?? "")
    .split(",")
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  const bad = tags.find((t) => !TAG.test(t));
  if (bad !== undefined)
    return fail(
      `“${bad.slice(0, 40)}” cannot be a tag: tags are one word of letters, digits, dots or dashes (at most 32 characters), separated by commas.`,
    );
  if (tags.length > MAX_TAGS) return fail(`At most ${MAX_TAGS} tags (there are ${tags.length}).`);
  return { ok: true, value: [...new Set(tags)] };
}

/** How the winner is chosen and its params, from the judging fields. */
function verificationOf(f: PostFormFields, errors: FieldErrors) {
  const type = f.verification || "creator_judges";
  if (type === "first_valid_match") {
    const expected = (f.expected ?? "").trim();
    if (!expected) errors.expected = "Write the answer you expect, or choose to read the answers and pick yourself.";
    if (expected.length > 1000)
      errors.expected = `Keep the expected answer to 1,000 characters (it has ${expected.length}).`;
    return { type, params: { expected } };
  }
  if (type !== "creator_judges") {
    errors.verification = "Choose how the winner is chosen from the list.";
    return { type: "creator_judges" as const, params: {} };
  }
  const window = f.judging_window ? Number(f.judging_window) : undefined;
  if (window !== undefined && !JUDGING_WINDOWS.includes(window))
    errors.judging_window = "Choose how long you have to pick from the list.";
  if (f.appeal && f.appeal !== "disputable" && f.appeal !== "final")
    errors.appeal = "Choose whether others may dispute your pick from the list.";
  return {
    type,
    params: {
      ...(window !== undefined && { judging_window_seconds: window }),
      ...(f.appeal === "final" && { appeal: false }),
    },
  };
}

function textField(value: string | undefined, max: number, empty: string, name: string): Parsed<string> {
  const v = (value ?? "").trim();
  if (!v) return fail(empty);
  if (v.length > max)
    return fail(
      `Keep the ${name} to ${max.toLocaleString("en-US")} characters (it has ${v.length.toLocaleString("en-US")}).`,
    );
  return { ok: true, value: v };
}

/**
 * The form → the POST /missions request, or what to fix per field. The reward is whole units of the
 * chosen asset; only the request carries base units.
 */
export function parsePostForm(
  f: PostFormFields,
  cfg: FormConfig,
): { ok: true; request: z.output<typeof CreateMissionRequest> } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const take = <T>(field: PostField, r: Parsed<T>): T | undefined => {
    if (r.ok) return r.value;
    errors[field] = r.message;
    return undefined;
  };
  const title = take(
    "title",
    textField(f.title, 200, "Give the mission a title: what needs doing, in one line.", "title"),
  );
  const description = take(
    "description",
    textField(f.description, 50_000, "Describe the work and what a good answer looks like.", "description"),
  );
  const asset = take("asset", assetOf(f, cfg.assets));
  const amount = asset ? take("amount", amountOf(f.amount, asset)) : undefined;
  const chain = chainOf(f, cfg, errors);
  const deadline = take("deadline", deadlineOf(f.deadline, cfg.now));
  const tags = take("tags", tagsOf(f.tags));
  const verification = verificationOf(f, errors);
  const parts = { title, description, asset, amount, deadline, tags };
  if (Object.keys(errors).length || !complete(parts)) return { ok: false, errors };
  return requestOf({ ...parts, chain, verification });
}

/** Every part parsed (each refusal is already in the errors). */
const complete = <T extends object>(parts: T): parts is { [K in keyof T]: NonNullable<T[K]> } =>
  Object.values(parts).every(Boolean);

/** Where the reward is held: the ledger, or Base when this server has the rail. */
function chainOf(f: PostFormFields, cfg: FormConfig, errors: FieldErrors): string {
  const chain = f.chain || "ledger";
  if (chain !== "ledger" && !(chain === "base" && cfg.baseRail))
    errors.chain = cfg.baseRail
      ? "Choose where the reward is held: on this board or in the escrow contract on Base."
      : "Rewards are held on this board here.";
  return chain;
}

type Parts = {
  title: string;
  description: string;
  asset: { symbol: string };
  amount: bigint;
  deadline: string;
  tags: string[];
  chain: string;
  verification: unknown;
};

/** The checked parts as the API's request. */
function requestOf(
  p: Parts,
): { ok: true; request: z.output<typeof CreateMissionRequest> } | { ok: false; errors: FieldErrors } {
  const { title, description, asset, amount, chain, verification, deadline, tags } = p;
  const request = CreateMissionRequest.safeParse({
    title,
    description,
    reward: { asset: asset.symbol, amount: amount.toString(), chain },
    verification,
    deadline,
    ...(tags.length && { tags }),
  });
  // Every field was checked above; a refusal the API schema still finds is told beside its field.
  if (!request.success) {
    const issue = request.error.issues[0];
    const field = FIELD_OF[issue?.path.join(".") ?? ""] ?? "title";
    return { ok: false, errors: { [field]: `This cannot be posted as written: ${issue?.message ?? "refused"}.` } };
  }
  return { ok: true, request: request.data };
}

/** The API's field paths → the form's fields. */
const FIELD_OF: Record<string, PostField> = {
  title: "title",
  description: "description",
  "reward.amount": "amount",
  "reward.asset": "asset",
  "reward.chain": "chain",
  deadline: "deadline",
  tags: "tags",
  "verification.type": "verification",
  "verification.params.expected": "expected",
  "verification.params.judging_window_seconds": "judging_window",
  "verification.params.appeal": "appeal",
};

/**
 * An error of the posting verb, told beside the field it is about: too low a balance says what
 * there is and what the mission needs, reward and fee apart; other refusals keep the API's message.
 */
export function verbErrorFields({
  err,
  request,
  assets,
}: {
  err: AppError;
  request: z.output<typeof CreateMissionRequest>;
  assets: AssetConfig[];
}): FieldErrors {
  const d = err.details ?? {};
  if (err.code === "INSUFFICIENT_BALANCE") {
    const asset = assets.find((a) => a.symbol === request.reward.asset);
    const fmt = (v: bigint) => formatAmount({ amount: v.toString(), asset: request.reward.asset }, assets);
    const reward = BigInt(request.reward.amount);
    const fee = BigInt(asset?.spam_fee ?? "0");
    const available = typeof d.available === "string" && /^-?[0-9]+$/.test(d.available) ? BigInt(d.available) : 0n;
    const short = reward + fee - available;
    return {
      amount:
        `Your balance is ${fmt(available)}; this mission needs ${fmt(reward + fee)} ` +
        `(${fmt(reward)} reward + ${fmt(fee)} posting fee). ` +
        (short > 0n ? `Add ${fmt(short)} to your balance or lower the reward.` : "Lower the reward."),
    };
  }
  const field = typeof d.field === "string" ? FIELD_OF[d.field] : undefined;
  return field ? { [field]: err.message } : {};
}
