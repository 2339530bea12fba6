/** @jsxImportSource hono/jsx */
import type { Child } from "hono/jsx";
import { durationWords, formatAmount } from "./web.format";
import { FieldError, FormAlert, Layout, type PageCtx } from "./web.layout";
import { JUDGING_WINDOWS, type PostField } from "./web.post-form";

// The post form (docs/web.md "Posting"). The page script sends its fields as typed to
// POST /web/post, where web.post-form.ts reads them (whole units → base units) and runs the
// verb of POST /missions; what to fix comes back per field and is shown beside it, and the
// posting fee — kept even if the mission is cancelled — is stated before the button.

type Config = PageCtx["deps"]["config"];

/** A labelled field with the place its error is shown (filled by the page script, client/post.ts). */
function Field(p: { name: PostField; label: Child; children: Child }) {
  return (
    <label>
      {p.label}
      {p.children}
      <FieldError id={`err-${p.name}`} name={p.name} />
    </label>
  );
}

/**
 * How the winner is chosen, how long the creator has to pick after the deadline (the board's
 * window unless chosen), and whether others may dispute the pick (with the server's default appeal).
 */
function JudgingFields(p: { appeal: Config["defaultAppeal"]; judgingWindowSeconds: number }) {
  const { appeal, judgingWindowSeconds } = p;
  return (
    <>
      <Field name="verification" label="How the winner is chosen">
        <select name="verification">
          <option value="creator_judges">I read the answers and pick the winner</option>
          <option value="first_valid_match">The first answer containing my expected answer wins</option>
        </select>
      </Field>
      <Field name="expected" label="Expected answer (only when the first correct answer wins)">
        <input name="expected" maxlength={1000} />
      </Field>
      <Field
        name="judging_window"
        label="Time you have to pick after the deadline (when you pick the winner); if you do not, the earliest answers share part of the reward"
      >
        <select name="judging_window">
          <option value="">{durationWords(judgingWindowSeconds)}</option>
          {JUDGING_WINDOWS.filter((s) => s !== judgingWindowSeconds).map((s) => (
            <option value={String(s)}>{durationWords(s)}</option>
          ))}
        </select>
      </Field>
      {appeal ? (
        <Field name="appeal" label="After you pick">
          <select name="appeal">
            <option value="disputable">
              Others may dispute it for {durationWords(appeal.windowSeconds)}, then it pays (recommended)
            </option>
            <option value="final">My pick is final and pays at once</option>
          </select>
        </Field>
      ) : (
        <p class="small muted">Your pick is final: the winner is paid as soon as you pick.</p>
      )}
    </>
  );
}

/** The reward: amount in whole units, asset, and where it is held. */
function RewardFields(p: { config: Config }) {
  return (
    <>
      <div class="row">
        <Field name="amount" label="Reward amount (e.g. 25 or 0.5)">
          <input name="amount" required inputmode="decimal" aria-describedby="post-cost" />
        </Field>
        <Field name="asset" label="Paid in">
          <select name="asset">
            {p.config.assets.map((a) => (
              <option value={a.symbol}>{a.symbol}</option>
            ))}
          </select>
        </Field>
      </div>
      <Field name="chain" label="Where the reward is held">
        <select name="chain">
          <option value="ledger">On this board, paid from your balance here</option>
          {p.config.baseRail ? (
            <option value="base">In the escrow contract on Base, funded from your wallet</option>
          ) : null}
        </select>
      </Field>
    </>
  );
}

/**
 * The cost before posting, for the first asset (the page script restates it for the amount and
 * asset chosen): the reward comes back if nobody wins, the posting fee never does.
 */
function CostNotice(p: { config: Config }) {
  const { assets } = p.config;
  const first = assets[0];
  const fee = first ? formatAmount({ amount: first.spam_fee, asset: first.symbol }, assets) : "";
  return (
    <p class="notice" id="post-cost" aria-live="polite">
      Posting costs the reward plus a {fee} posting fee, which keeps spam off the board.{" "}
      <strong>The posting fee is kept</strong>, even if you cancel the mission or nobody answers; the reward comes back
      to you then.
    </p>
  );
}

export function postPage(ctx: PageCtx) {
  const { config } = ctx.deps;
  const deadline = new Date(ctx.now.getTime() + 7 * 86_400_000).toISOString().slice(0, 16);
  const assets = config.assets.map((a) => ({ symbol: a.symbol, decimals: a.decimals, fee: a.spam_fee }));
  return (
    <Layout
      ctx={ctx}
      meta={{
        title: "Post a mission",
        description: "Describe the work, set a reward held in escrow until you pick the winner.",
        path: "/post",
        wallet: true,
      }}
    >
      <h1>Post a mission</h1>
      {!ctx.viewer ? (
        <p class="notice">
          <a href="/me">Sign in</a> first (needs JavaScript and a wallet).
        </p>
      ) : null}
      <form id="post-form" class="stacked" data-assets={JSON.stringify(assets)} novalidate>
        <FormAlert id="post-errors" />
        <Field name="title" label="Title: what needs doing, in one line">
          <input name="title" required maxlength={200} />
        </Field>
        <Field name="description" label="Description: what a good answer looks like (Markdown: **bold**, lists, links)">
          <textarea name="description" required maxlength={50000}></textarea>
        </Field>
        <RewardFields config={config} />
        <CostNotice config={config} />
        <Field name="deadline" label="Deadline for answers (your local time)">
          <input name="deadline" type="datetime-local" required value={deadline} />
        </Field>
        <JudgingFields appeal={config.defaultAppeal} judgingWindowSeconds={config.judgingWindowSeconds} />
        <Field name="tags" label="Tags (comma-separated, e.g. python, writing)">
          <input name="tags" maxlength={400} />
        </Field>
        <button type="submit">Post mission</button>
      </form>
      <p role="status" id="action-status" aria-live="polite"></p>
    </Layout>
  );
}
