import { readFileSync } from "node:fs";
import { commitmentOf, contentHash } from "../content.js";
import { followMission, followSearch, isSettled } from "../follow.js";
import { awardMission } from "../award-sign.js";
import type { CreateMission, CreateSubmission, Mission, Submission } from "../types.js";
import { EXIT, need, notSignedIn, readInput, str, UsageError, type Ctx } from "./context.js";
import { LIST_QUERY_FLAGS } from "./flags.js";
import { emit, keyValues, table } from "./output.js";
import { type AssetUnits, formatAmount, parseAmount } from "../amounts.js";
import { amountText, assetTerms, relativeTime, unitsFor } from "./units.js";

// Mission commands: missions list|get|create|void, claim, submit, commit, reveal, award, vote, watch, fund.

const MISSION_COLS = ["id", "status", "phase", "reward", "deadline", "submission_count", "title"];
const MISSION_FIELDS = [
  "id",
  "title",
  "status",
  "phase",
  "payout_status",
  "creator",
  "reward",
  "verification",
  "deadline",
  "judging_deadline",
  "submission_count",
  "claim_count",
  "resolution",
  "escrow",
  "view_url",
];
/** A mission as a person reads it: the reward in whole units, times relative (--json keeps the wire). */
const forPeople = (m: Mission, units: AssetUnits[]): Record<string, unknown> => ({
  ...m,
  reward: amountText(m.reward.amount, m.reward.asset, units),
  deadline: relativeTime(m.deadline),
  judging_deadline: relativeTime(m.judging_deadline),
});
const showMission = async (ctx: Ctx, m: Mission) => {
  const units = await unitsFor(ctx);
  emit(ctx.out, m, () => keyValues(forPeople(m, units), MISSION_FIELDS));
};
const AMOUNT = /^(0|[1-9][0-9]{0,77})$/;

/** --reward in whole units (25, 0.5, "25 USDC"), or --reward-base-units exactly. */
async function rewardBaseUnits(ctx: Ctx, asset: string): Promise<string> {
  const whole = str(ctx.flags, "reward");
  const base = str(ctx.flags, "reward-base-units");
  if ((whole === undefined) === (base === undefined))
    throw new UsageError(
      `give the reward once: --reward 25 (whole ${asset}: 25 means 25 ${asset}) or --reward-base-units 25000000`,
    );
  if (base !== undefined) {
    if (!AMOUNT.test(base) || base === "0")
      throw new UsageError(`--reward-base-units is a positive integer in ${asset}'s base units`);
    return base;
  }
  const parsed = parseAmount(whole!, await assetTerms(ctx.client, asset));
  if (!parsed.ok) throw new UsageError(`--reward: ${parsed.message}`);
  return parsed.base.toString();
}

/** "posting 25 USDC + 5 USDC spam fee from your balance; the spam fee is kept, even after a void". */
async function postingLine(ctx: Ctx, asset: string, amount: string): Promise<string> {
  const terms = await assetTerms(ctx.client, asset).catch(() => undefined);
  if (!terms) return `posting ${amount} base units of ${asset}; a spam fee is taken too and kept, even after a void\n`;
  const fee = terms.spam_fee && terms.spam_fee !== "0" ? ` + ${formatAmount(terms.spam_fee, terms)} spam fee` : "";
  return `posting ${formatAmount(amount, terms)} reward${fee} from your balance; the spam fee is kept, even after a void\n`;
}

export { LIST_QUERY_FLAGS };

function listQuery(ctx: Ctx) {
  const f = ctx.flags;
  const q: Record<string, string | number> = {};
  for (const k of LIST_QUERY_FLAGS) {
    const v = str(f, k);
    if (v !== undefined) q[k.replace(/-/g, "_")] = v;
  }
  const limit = str(f, "limit");
  if (limit !== undefined) q.limit = Number(limit);
  return q as Parameters<Ctx["client"]["listMissions"]>[0];
}

/** `+3d`, `+12h`, `+30m` from now, or an ISO 8601 time. */
export function parseDeadline(s: string, now = new Date()): string {
  const rel = /^\+(\d{1,6})([dhm])$/.exec(s);
  if (rel)
    return new Date(
      now.getTime() + Number(rel[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[rel[2] as "d" | "h" | "m"],
    ).toISOString();
  const t = Date.parse(s);
  if (Number.isNaN(t)) throw new UsageError(`--deadline: "${s}" is neither +<n>d|h|m nor an ISO time`);
  return new Date(t).toISOString();
}

export async function missions(ctx: Ctx): Promise<number> {
  const [sub, id] = ctx.args;
  const c = ctx.client;
  switch (sub) {
    case "list": {
      if (ctx.flags.all) {
        const all: Mission[] = [];
        const max = Number(str(ctx.flags, "max") ?? 1000);
        for await (const m of c.missions(listQuery(ctx))) if (all.push(m) >= max) break;
        const units = await unitsFor(ctx);
        emit(ctx.out, { missions: all }, () =>
          table(
            all.map((m) => forPeople(m, units)),
            MISSION_COLS,
          ),
        );
      } else {
        const page = await c.listMissions(listQuery(ctx));
        const units = await unitsFor(ctx);
        emit(
          ctx.out,
          page,
          () =>
            table(
              page.missions.map((m) => forPeople(m, units)),
              MISSION_COLS,
            ) + (page.next_cursor ? `next: --cursor ${page.next_cursor}\n` : ""),
        );
      }
      return EXIT.ok;
    }
    case "get":
      await showMission(ctx, await c.getMission(need(id, "mission id")));
      return EXIT.ok;
    case "create": {
      const file = str(ctx.flags, "file");
      let body: CreateMission;
      if (file)
        body = JSON.parse(file === "-" ? (await readInput(ctx, "-")).toString("utf8") : readFileSync(file, "utf8"));
      else {
        const asset = str(ctx.flags, "asset") ?? "USDC";
        const amount = await rewardBaseUnits(ctx, asset);
        const chain = str(ctx.flags, "chain");
        const language = str(ctx.flags, "language");
        body = {
          title: need(str(ctx.flags, "title"), "--title"),
          description: str(ctx.flags, "description") ?? "",
          reward: {
            asset,
            amount,
            ...(chain && { chain }),
          } as CreateMission["reward"],
          verification: {
            type: (str(ctx.flags, "verification") ?? "creator_judges") as never,
            params: JSON.parse(str(ctx.flags, "params") ?? "{}"),
          },
          deadline: parseDeadline(str(ctx.flags, "deadline") ?? "+3d"),
          tags:
            str(ctx.flags, "tags")
              ?.split(",")
              .map((t) => t.trim())
              .filter(Boolean) ?? [],
          ...(language && { language }),
        } as CreateMission;
      }
      // Said before posting (docs/decisions.md "Amounts as people write them"): what leaves the
      // balance, and that the spam fee is kept.
      ctx.out.err(await postingLine(ctx, body.reward.asset, body.reward.amount));
      const m = await c.createMission(body, { idempotencyKey: str(ctx.flags, "idempotency-key") });
      await showMission(ctx, m);
      if (!ctx.out.json && m.status === "pending_escrow") ctx.out.err(`fund it: oabp fund ${m.id}\n`);
      return EXIT.ok;
    }
    case "void":
      await showMission(ctx, await c.voidMission(need(id, "mission id")));
      return EXIT.ok;
    case "submissions": {
      const subs: Submission[] = [];
      for await (const s of c.submissions(need(id, "mission id"))) if (subs.push(s) >= 1000) break;
      emit(ctx.out, { submissions: subs }, () =>
        table(subs as never, ["id", "submitter", "status", "reason", "content_hash", "submitted_at"]),
      );
      return EXIT.ok;
    }
    default:
      throw new UsageError("usage: oabp missions list|get <id>|create|void <id>|submissions <id>");
  }
}

export async function claim(ctx: Ctx): Promise<number> {
  const id = need(ctx.args[0], "mission id");
  if (ctx.flags.release) {
    await ctx.client.releaseClaim(id);
    emit(ctx.out, { mission_id: id, released: true }, () => `released your claim on ${id}\n`);
  } else {
    const cl = await ctx.client.claim(id);
    emit(ctx.out, cl, () => keyValues(cl as unknown as Record<string, unknown>));
  }
  return EXIT.ok;
}

/** submit and reveal: inline content (file or stdin), or --uri with the hash computed from the bytes. */
export async function submit(ctx: Ctx, reveal = false): Promise<number> {
  const id = need(ctx.args[0], "mission id");
  const uri = str(ctx.flags, "uri");
  const salt = str(ctx.flags, "salt");
  if (reveal && !salt) throw new UsageError("reveal needs the --salt of your commitment");
  let body: CreateSubmission;
  if (uri && str(ctx.flags, "hash") && !ctx.args[1]) body = { content_uri: uri, content_hash: str(ctx.flags, "hash")! };
  else {
    const bytes = await readInput(ctx, ctx.args[1]);
    if (uri) body = { content_uri: uri, content_hash: contentHash(bytes) };
    else body = { content: bytes.toString("utf8") };
  }
  if (salt) body.salt = salt;
  const s = await ctx.client.submit(id, body, { idempotencyKey: str(ctx.flags, "idempotency-key") });
  emit(ctx.out, s, () =>
    keyValues(s as unknown as Record<string, unknown>, [
      "id",
      "mission_id",
      "status",
      "reason",
      "next_action",
      "content_hash",
    ]),
  );
  return EXIT.ok;
}

export async function commit(ctx: Ctx): Promise<number> {
  const id = need(ctx.args[0], "mission id");
  const salt = need(str(ctx.flags, "salt"), "--salt (keep it: the reveal needs it)");
  const bytes = await readInput(ctx, ctx.args[1]);
  const me = (await ctx.client.ensureSession())?.agent_id;
  if (!me) throw notSignedIn();
  const r = await ctx.client.commit(id, commitmentOf(bytes, me, salt));
  emit(ctx.out, r, () => keyValues(r as unknown as Record<string, unknown>));
  return EXIT.ok;
}

/** award <mission> <submission>[:<share_bps>] … */
export async function award(ctx: Ctx): Promise<number> {
  const [id, ...picks] = ctx.args;
  if (!id || picks.length === 0) throw new UsageError("usage: oabp award <mission> <submission>[:share_bps] …");
  const winners = picks.map((p) => {
    const [submission_id, bps] = p.split(":");
    return { submission_id: submission_id!, ...(bps !== undefined && { share_bps: Number(bps) }) };
  });
  // On the base rail the creator signs each release of its own deposit (award-sign.ts).
  const m = await awardMission(ctx.client, id, { winners });
  emit(ctx.out, m, () =>
    keyValues(m as unknown as Record<string, unknown>, ["id", "status", "phase", "payout_status", "resolution"]),
  );
  return EXIT.ok;
}

export async function vote(ctx: Ctx): Promise<number> {
  const [id, sid, amount] = ctx.args;
  if (!id || !sid || !amount || !AMOUNT.test(amount))
    throw new UsageError("usage: oabp vote <mission> <submission> <stake, base units>");
  const v = await ctx.client.vote(id, { submission_id: sid, amount });
  emit(ctx.out, v, () => keyValues(v as unknown as Record<string, unknown>));
  return EXIT.ok;
}

/** watch <mission>: until it settles (exit 0 resolved, 1 voided); watch --q/--tag…: new matches. */
export async function watch(ctx: Ctx): Promise<number> {
  const intervalMs = Number(str(ctx.flags, "interval") ?? 2) * 1000;
  const maxPolls = Number(str(ctx.flags, "max-polls") ?? 10_000);
  const stamp = () => new Date().toISOString().slice(11, 19);
  const id = ctx.args[0];
  if (!id) {
    let n = 0;
    const max = Number(str(ctx.flags, "max") ?? Infinity);
    for await (const m of followSearch(ctx.client, listQuery(ctx), { intervalMs, maxPolls })) {
      ctx.out.write(
        ctx.out.json
          ? `${JSON.stringify(m)}\n`
          : `${stamp()}  ${m.id}  ${m.reward.amount} ${m.reward.asset}  ${m.title}\n`,
      );
      if (++n >= max) return EXIT.ok;
    }
    return EXIT.timeout;
  }
  // Under an appeal (creator_judges' default) an award pays only when the appeal window closes,
  // often a day later: say so, and keep polling only with --wait-appeal (AIP-1 §4.1, docs/first-mission.md).
  const waitAppeal = ctx.flags["wait-appeal"] === true;
  let told = false;
  let last: Mission | undefined;
  const polls = waitAppeal && str(ctx.flags, "max-polls") === undefined ? Number.MAX_SAFE_INTEGER : maxPolls;
  for await (const m of followMission(ctx.client, id, {
    intervalMs,
    maxPolls: polls,
    until: (x) => isSettled(x) || (!waitAppeal && x.phase === "appeal"),
  })) {
    last = m;
    if (ctx.out.json) ctx.out.write(`${JSON.stringify(m)}\n`);
    else if (ctx.out.tty)
      ctx.out.write(
        `\r\x1b[K${stamp()}  ${m.status} · ${m.phase} · payout ${m.payout_status} · ${m.submission_count} submission(s)${isSettled(m) ? "\n" : ""}`,
      );
    else ctx.out.write(`${stamp()}  ${m.status}  ${m.phase}  ${m.payout_status}  ${m.submission_count}\n`);
    if (m.phase === "appeal" && !told) {
      told = true;
      const closes = m.award?.voting_deadline ?? m.award?.appeal_deadline;
      ctx.out.err(
        `${ctx.out.tty ? "\n" : ""}oabp: awarded; the award pays when its appeal window closes${closes ? ` at ${closes}` : ""} ` +
          `(the server's OABP_APPEAL_WINDOW_SECONDS; a mission created with {"appeal": false} pays at once). ` +
          (waitAppeal
            ? "waiting for it (--wait-appeal)\n"
            : `\`oabp watch ${id} --wait-appeal\` waits for it; exit 8 = not settled yet\n`),
      );
    }
  }
  if (!last || !isSettled(last)) {
    if (!told) ctx.out.err(`oabp: ${id} not settled after ${polls} polls (exit 8); --max-polls raises the bound\n`);
    return EXIT.timeout;
  }
  return last.status === "resolved" ? EXIT.ok : EXIT.failed;
}

export async function fund(ctx: Ctx): Promise<number> {
  const id = need(ctx.args[0], "mission id");
  const rpcUrl = need(
    str(ctx.flags, "rpc-url") ?? ctx.env.OABP_RPC_URL,
    "--rpc-url (or OABP_RPC_URL): an RPC of the mission's chain",
  );
  const account = await ctx.client.account();
  if (!account) throw notSignedIn();
  if (ctx.flags.permit && ctx.flags.approve) throw new UsageError("--permit and --approve exclude each other");
  const { fundMission } = await import("../fund.js"); // viem: loaded for `fund` only
  const m = await fundMission(ctx.client, id, {
    rpcUrl,
    account,
    permit: ctx.flags.permit ? "permit" : ctx.flags.approve ? "approve" : "auto",
    pollMs: Number(str(ctx.flags, "interval") ?? 2) * 1000,
    maxPolls: Number(str(ctx.flags, "max-polls") ?? 900),
    onProgress: (p) => {
      if (ctx.out.json) return;
      const line =
        p.step === "approve" || p.step === "fund"
          ? `${p.step}: ${p.tx_hash}`
          : p.step === "attached"
            ? `deposit attached (${p.deposit_status}), waiting for confirmations`
            : p.step === "waiting"
              ? `waiting: ${p.mission_status} · ${p.phase}`
              : p.step === "permit"
                ? "permit: signing the allowance (no approve transaction)"
                : `open: ${p.mission.id}`;
      ctx.out.err(ctx.out.tty && p.step === "waiting" ? `\r\x1b[K${line}` : `${line}\n`);
    },
  });
  if (ctx.out.tty && !ctx.out.json) ctx.out.err("\n");
  await showMission(ctx, m);
  return m.status === "pending_escrow" ? EXIT.timeout : EXIT.ok;
}
