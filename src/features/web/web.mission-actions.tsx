/** @jsxImportSource hono/jsx */
import { voidRefusal, type MissionWire } from "../missions";
import { appealRefusal } from "../verification";
import type { SubmissionWire } from "../submissions";
import type { AssetConfig } from "../../env";
import { assetOf, exactTime, formatAmount } from "./web.format";
import { FieldError, FormAlert, type Names, type PageCtx } from "./web.layout";

// The mission page's actions (docs/web.md "Pages"): what this viewer may do now, decided by the
// functions the API runs (`voidRefusal`, `appealRefusal`), and the buttons and forms for it; the
// page script sends them to the REST routes.

export interface Can {
  judge: boolean;
  void: boolean;
  solve: boolean;
  dispute: boolean;
  /** Pending submissions a dispute may name: never the viewer's own, never an awarded one. */
  disputable: SubmissionWire[];
}

/** The actions the same rules the API applies would accept from this viewer now. */
export function actionsOf(
  { viewer, now }: Pick<PageCtx, "viewer" | "now">,
  { mission: m, subs }: { mission: MissionWire; subs: SubmissionWire[] },
): Can {
  const isCreator = viewer === m.creator;
  const awarded = new Set(m.award?.winners.map((w) => w.submission_id) ?? []);
  const disputable = subs.filter((s) => s.status === "pending" && !awarded.has(s.id) && s.submitter !== viewer);
  const canDisputeNow = !!viewer && !!m.award && appealRefusal({ now }, { mission: m, voter: viewer }) === null;
  return {
    judge: isCreator && m.status === "open" && m.verification.type === "creator_judges",
    void: isCreator && voidRefusal({ status: m.status, submissionCount: m.submission_count }) === null,
    solve: !!viewer && !isCreator && m.status === "open",
    dispute: canDisputeNow && disputable.length > 0,
    disputable,
  };
}

function CreatorActions(p: { can: Can }) {
  const { can } = p;
  if (!can.judge && !can.void) return null;
  return (
    <div>
      {can.judge ? (
        <p class="small muted">
          Tick the winner(s) above. With several winners, give each a share in % (together 100), or leave the shares
          empty to split equally.
        </p>
      ) : null}
      {can.judge ? (
        <button type="button" id="award-btn">
          Award selected submissions
        </button>
      ) : null}{" "}
      {can.void ? (
        <button type="button" class="secondary" id="void-btn">
          Cancel mission and refund the reward
        </button>
      ) : null}
    </div>
  );
}

function SolveForm() {
  return (
    <div>
      <button type="button" id="claim-btn">
        I'm working on it
      </button>
      <form id="submit-form" class="fielded">
        <FormAlert />
        <label>
          Answer (sent as text, up to 64 KB)<textarea name="content" maxlength={65536}></textarea>
          <FieldError id="err-submit-content" name="content" />
        </label>
        <p class="small muted">
          Or a file: your browser computes its fingerprint (SHA-256) and sends it with the link where you host it.
        </p>
        <label>
          Link to the file (https://, ipfs:// or ar://)
          <input name="content_uri" size={30} />
          <FieldError id="err-submit-uri" name="content_uri" />
        </label>
        <label>
          File to fingerprint
          <input type="file" name="file" />
          <FieldError id="err-submit-file" name="file" />
        </label>
        <button type="submit">Submit</button>
      </form>
    </div>
  );
}

type Appeal = { vote_token: string; min_vote: string; quorum: string };

function DisputeForm(p: { m: MissionWire; can: Can; names: Names; assets: AssetConfig[] }) {
  const appeal = p.m.verification.params.appeal as Appeal | false | undefined;
  const voteAsset = appeal ? assetOf(appeal.vote_token, p.assets) : undefined;
  if (!p.can.dispute || !appeal || !voteAsset) return null;
  return (
    <form id="dispute-form" class="fielded" data-decimals={String(voteAsset.decimals)} data-symbol={voteAsset.symbol}>
      <FormAlert />
      <p>
        Stake {voteAsset.symbol} on the submission that should have won. Enough stakes (
        {formatAmount({ amount: appeal.quorum, asset: voteAsset.symbol }, p.assets)} in all) put the pick to a vote;
        stakes on the losing side are lost, the rest are returned.
      </p>
      <label>
        Should have won
        <select name="submission_id">
          {p.can.disputable.map((s) => (
            <option value={s.id}>
              {p.names.get(s.submitter) ?? `${s.submitter.slice(0, 6)}…${s.submitter.slice(-4)}`}, sent{" "}
              {exactTime(new Date(s.submitted_at), { short: true })}
            </option>
          ))}
        </select>
      </label>
      <label>
        Your stake in {voteAsset.symbol} (at least{" "}
        {formatAmount({ amount: appeal.min_vote, asset: voteAsset.symbol }, p.assets)})
        <input name="amount" required inputmode="decimal" size={8} />
        <FieldError id="err-dispute-amount" name="amount" />
      </label>
      <button type="submit">Dispute the pick</button>
    </form>
  );
}

export function ActionsPanel(p: { ctx: PageCtx; m: MissionWire; can: Can; names: Names }) {
  const { m, can } = p;
  const { viewer } = p.ctx;
  if (m.status !== "open" && m.status !== "pending_escrow" && !can.dispute) return null;
  const fundable = viewer === m.creator && m.status === "pending_escrow" && !!m.escrow;
  return (
    <section class="panel" id="actions" aria-labelledby="act-h">
      <h2 id="act-h">{can.dispute ? "Disagree with the pick?" : "Take part"}</h2>
      {!viewer ? (
        <p>
          <a href="/me">Sign in with your wallet</a> to work on it, send an answer or judge (needs JavaScript).
        </p>
      ) : null}
      <CreatorActions can={can} />
      {fundable ? (
        <div>
          <button type="button" id="fund-btn">
            Fund from wallet (permit or approve, then fundUntil)
          </button>
        </div>
      ) : null}
      {can.solve ? <SolveForm /> : null}
      <DisputeForm m={m} can={can} names={p.names} assets={p.ctx.deps.config.assets} />
      <p role="status" id="action-status" aria-live="polite"></p>
    </section>
  );
}
