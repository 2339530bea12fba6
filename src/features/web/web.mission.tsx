/** @jsxImportSource hono/jsx */
import { raw } from "hono/html";
import { listClaims } from "../claims";
import { listQuestions, type QuestionWire } from "../qa";
import { getMission, voidRefusal, type MissionWire } from "../missions";
import { appealRefusal } from "../verification";
import { listSubmissions, readSubmissionContent, type SubmissionWire } from "../submissions";
import { ctxForViewer } from "../../lib/context";
import type { Deps } from "../../deps";
import { assetOf, exactTime, formatAmount, verificationInWords } from "./web.format";
import {
  ColumnHeads,
  ContentHash,
  Copyable,
  FieldError,
  FormAlert,
  Layout,
  ListOr,
  namesOf,
  Person,
  When,
  type Names,
  type PageCtx,
} from "./web.layout";
import { markdownToText, renderMarkdown } from "./web.markdown";
import { Deadline, Tags } from "./web.board";
import { plural, words } from "./web.words";

// The mission page: description as safe Markdown, reward and escrow, countdown,
// claims, submissions as the visibility rules allow (the service decides: content_uri is null
// for third parties until resolution), winners and receipts, and the wallet actions.

/** Inline deliverables shown as text up to this size; never rendered as HTML. */
const DELIVERABLE_PREVIEW_BYTES = 16 * 1024;

/** Previews decoded per page: each reads one stored deliverable (lists never inline them). */
const DELIVERABLE_PREVIEWS = 20;

function previewOf(body: Buffer): string {
  const text = body.subarray(0, DELIVERABLE_PREVIEW_BYTES).toString("utf8");
  return body.length > DELIVERABLE_PREVIEW_BYTES ? `${text}\n… (${body.length} bytes in all)` : text;
}

/**
 * Text previews of the inline deliverables on this page, read through the same content verb (and
 * visibility rule, and concurrency cap) as GET /missions/{id}/submissions/{sid}/content; a preview
 * that cannot be read now is simply not shown (the link to the content route stays).
 */
async function deliverablePreviews(
  ctx: PageCtx,
  missionId: string,
  subs: SubmissionWire[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const inline = subs
    .filter((s) => s.content_uri?.endsWith(`/submissions/${s.id}/content`))
    .slice(0, DELIVERABLE_PREVIEWS);
  for (const s of inline) {
    try {
      const r = await readSubmissionContent(ctxForViewer(ctx.deps, ctx.viewer, ctx.now), {
        missionId,
        submissionId: s.id,
      });
      if (r !== "not_modified") out.set(s.id, previewOf(r.body));
    } catch {
      // private, busy or undecodable: no preview
    }
  }
  return out;
}

function Deliverable(p: { s: SubmissionWire; preview: string | undefined }) {
  const uri = p.s.content_uri;
  if (!uri) return <span class="muted">hidden until the winner is chosen</span>;
  if (p.preview !== undefined)
    return (
      <pre class="deliverable" tabindex={0}>
        {p.preview}
      </pre>
    );
  // Only https links are clickable; any other scheme is shown as text.
  return uri.startsWith("https://") ? (
    <a class="uri" href={uri} rel="nofollow ugc noopener noreferrer">
      {uri.slice(0, 200)}
    </a>
  ) : (
    <code class="uri">{uri.slice(0, 200)}</code>
  );
}

const CHAIN_NAMES: Record<number, string> = { 8453: "Base", 84532: "Base Sepolia" };

function EscrowPanel(p: { m: MissionWire }) {
  const e = p.m.escrow;
  if (!e)
    return (
      <p class="muted small">
        The reward is held by this server on its ledger from the moment the mission is posted, until it is paid or
        refunded.
      </p>
    );
  return (
    <div
      class="panel"
      id="escrow"
      data-chain-id={String(e.chain_id)}
      data-contract={e.contract}
      data-mission-key={e.mission_key}
      data-token={e.token}
      data-amount={e.amount}
      data-spam-fee={e.spam_fee}
    >
      <h2>Reward held on {CHAIN_NAMES[e.chain_id] ?? `chain ${e.chain_id}`}</h2>
      <dl class="kv">
        <dt>Escrow contract</dt>
        <dd>
          <Copyable value={e.contract} label="contract address" />
        </dd>
        <dt>Deposit</dt>
        <dd>
          {e.deposit ? (
            <span>
              {e.deposit.status === "confirmed" || e.deposit.status === "final" ? "Funded" : "Funding, confirming"}{" "}
              <Copyable value={String(e.deposit.tx_hash ?? "")} label="deposit transaction" />
            </span>
          ) : (
            "Not funded yet"
          )}
        </dd>
        <dt>Payment</dt>
        <dd>
          {words.payout(p.m.payout_status)}
          {e.payout_tx_hash ? (
            <span>
              {" "}
              <Copyable value={e.payout_tx_hash} label="payment transaction" />
            </span>
          ) : null}
        </dd>
      </dl>
      <details>
        <summary>For agents: the funding details</summary>
        <dl class="kv">
          <dt>Mission key</dt>
          <dd>
            <Copyable value={e.mission_key} label="mission key" />
          </dd>
          <dt>Funding call</dt>
          <dd>
            <code>{e.fund_call}</code>
          </dd>
        </dl>
      </details>
    </div>
  );
}

type Claims = Awaited<ReturnType<typeof listClaims>>["claims"];
type Thread = QuestionWire[];

/** A deadline as its short exact time and, beside it, how far away it is. */
function At(p: { at: string | null | undefined; now: Date }) {
  if (!p.at) return null;
  return (
    <span>
      {exactTime(new Date(p.at), { short: true })} (<When at={p.at} now={p.now} />)
    </span>
  );
}

function AppealNext(p: { m: MissionWire; award: NonNullable<MissionWire["award"]>; now: Date; names: Names }) {
  const a = p.award;
  return (
    <span>
      The creator picked{" "}
      {a.winners.map((w, i) => (
        <span>
          {i ? ", " : ""}
          <Person id={w.agent_id} name={p.names.get(w.agent_id)} />
        </span>
      ))}
      . <strong id="pays-on">Pays on {exactTime(new Date(a.appeal_deadline), { short: true })} unless disputed</strong>{" "}
      (<When at={a.appeal_deadline} now={p.now} />
      ).
    </span>
  );
}

/** An escrowed mission: the pick waiting out its appeal, a vote, or judging. */
function escrowedNext(m: MissionWire, now: Date, names: Names) {
  const a = m.award;
  if (a && m.phase === "appeal") return <AppealNext m={m} award={a} now={now} names={names} />;
  if (a && m.phase === "voting")
    return (
      <span>
        The pick was disputed: voters decide until <At at={a.voting_deadline} now={now} />. The reward waits for them.
      </span>
    );
  return (
    <span>
      Submissions are closed; {words.phase(m.phase)}
      {m.judging_deadline ? (
        <span>
          {" "}
          until <At at={m.judging_deadline} now={now} />
        </span>
      ) : null}
      .
    </span>
  );
}

function nextInWords(m: MissionWire, now: Date, names: Names): unknown {
  switch (m.status) {
    case "pending_escrow":
      return "Waiting for the creator to fund the reward; then it opens for submissions.";
    case "open":
      return (
        <span>
          Open for submissions until <At at={m.deadline} now={now} />.{" "}
          {m.verification.type === "creator_judges" ? "Then the creator picks the winner." : ""}
        </span>
      );
    case "escrowed":
      return escrowedNext(m, now, names);
    case "resolved":
      return (
        <span>
          Decided {m.resolution?.resolved_at ? <When at={m.resolution.resolved_at} now={now} /> : null}
          {m.resolution_reason ? `: ${words.reason(m.resolution_reason)}` : ""}. Payment:{" "}
          <strong id="payout-words">{words.payout(m.payout_status).toLowerCase()}</strong>.
        </span>
      );
    case "voided":
      return `Cancelled: ${words.reason(m.resolution_reason) || "no reason given"}. The reward went back to the creator.`;
    default:
      return undefined;
  }
}

/** What happens next, in words: when it closes, who judges, when it pays, or what became of it. */
function NextPanel(p: { m: MissionWire; now: Date; names: Names }) {
  return (
    <section class="panel next" aria-labelledby="next-h" id="next">
      <h2 id="next-h">What happens next</h2>
      <p>{nextInWords(p.m, p.now, p.names)}</p>
    </section>
  );
}

export async function missionPage(ctx: PageCtx, id: string) {
  const { deps, now, viewer } = ctx;
  const m = await getMission(ctxForViewer(deps, viewer, now), { id });
  const reward = formatAmount(m.reward, deps.config.assets);
  const pub = deps.config.publicUrl;
  // Anonymous pages are shared whole per URL and minute (web.index.tsx sharedPage).
  const article = await missionArticle(ctx, m);
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "Demand",
    "@id": `${pub}/m/${m.id}`,
    name: m.title,
    description: markdownToText(m.description, 500),
    url: `${pub}/m/${m.id}`,
    availabilityEnds: m.deadline,
    priceSpecification: { "@type": "PriceSpecification", price: m.reward.amount, priceCurrency: m.reward.asset },
    seller: { "@type": "Organization", identifier: m.creator, url: `${pub}/u/${m.creator}` },
    dateCreated: m.created_at,
    keywords: m.tags.join(", "),
  };
  return (
    <Layout
      ctx={ctx}
      meta={{
        title: m.title,
        description: `${reward} · ${verificationInWords(m.verification, deps.config.assets)} ${markdownToText(m.description, 140)}`,
        path: `/m/${m.id}`,
        ogType: "article",
        jsonLd,
        alternates: { json: `/missions/${m.id}` },
        wallet: true,
      }}
    >
      {article}
    </Layout>
  );
}

interface ArticleData {
  subs: SubmissionWire[];
  claims: Claims;
  /** Pinned entries first, then the rest of the thread in its order. */
  thread: Thread;
  moreQuestions: boolean;
  previews: Map<string, string>;
  names: Names;
}

/**
 * What the article shows besides the mission. The mission's own counters say when a list is
 * empty, so a mission nobody has touched yet costs no read beyond itself (docs/web.md "Page
 * caching"); active claims never outnumber the stored claim_count.
 */
async function articleData(ctx: PageCtx, m: MissionWire): Promise<ArticleData> {
  const reader = ctxForViewer(ctx.deps, ctx.viewer, ctx.now);
  const missionId = m.id;
  const [subs, claims, qa] = await Promise.all([
    m.submission_count === 0 ? [] : listSubmissions(reader, { missionId, limit: 50 }).then((r) => r.submissions),
    m.claim_count === 0 ? [] : listClaims(reader, { missionId, limit: 50 }).then((r) => r.claims),
    m.qa.count === 0 ? { questions: [], next_cursor: null } : listQuestions(reader, { missionId, limit: 50 }),
  ]);
  const thread = [...qa.questions.filter((q) => q.pinned), ...qa.questions.filter((q) => !q.pinned)];
  const [previews, names] = await Promise.all([
    deliverablePreviews(ctx, missionId, subs),
    namesOf(ctx, [
      m.creator,
      ...subs.map((s) => s.submitter),
      ...claims.map((c) => c.agent_id),
      ...thread.map((q) => q.author),
      ...(m.award?.winners.map((w) => w.agent_id) ?? []),
      ...(m.resolution?.winners.map((w) => w.agent_id) ?? []),
    ]),
  ]);
  return { subs, claims, thread, moreQuestions: qa.next_cursor !== null, previews, names };
}

interface Can {
  judge: boolean;
  void: boolean;
  solve: boolean;
  dispute: boolean;
  /** Pending submissions a dispute may name: never the viewer's own, never an awarded one. */
  disputable: SubmissionWire[];
}

/** The actions the same rules the API applies would accept from this viewer now. */
function actionsOf(ctx: PageCtx, m: MissionWire, subs: SubmissionWire[]): Can {
  const { viewer, now } = ctx;
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

function Facts(p: { m: MissionWire; now: Date; names: Names; assets: Deps["config"]["assets"] }) {
  const { m, now } = p;
  const live = m.status === "open" || m.status === "pending_escrow";
  return (
    <>
      <div class="facts">
        <span class={`status status-${m.status}`} title={`API: status ${m.status}, phase ${m.phase}`}>
          {words.status(m.status)}
          {m.phase && m.status === "escrowed" ? ` · ${words.phase(m.phase)}` : ""}
        </span>
        {live ? <Deadline m={m} now={now} /> : null}
        <span>{plural(m.submission_count, "submission")}</span>
        <span>
          Posted by <Person id={m.creator} name={p.names.get(m.creator)} />
        </span>
      </div>
      <Tags tags={m.tags} />
      <p>
        <strong>How the winner is chosen:</strong>{" "}
        <span title={`API: verification ${m.verification.type}`}>{verificationInWords(m.verification, p.assets)}</span>
      </p>
      {m.warnings.length ? <p class="notice">{m.warnings.map((w) => w.replace(/^[a-z_]+: /, "")).join(" ")}</p> : null}
    </>
  );
}

function WinnersSection(p: { m: MissionWire; names: Names; assets: Deps["config"]["assets"] }) {
  const { m } = p;
  if (!m.resolution) return null;
  return (
    <section class="panel" aria-labelledby="res-h">
      <h2 id="res-h">Winners</h2>
      <table class="stack">
        <ColumnHeads names={["Winner", "Amount", "Receipt"]} />
        <tbody>
          {m.resolution.winners.map((w) => (
            <tr>
              <td data-label="Winner">
                <Person id={w.agent_id} name={p.names.get(w.agent_id)} />
              </td>
              <td data-label="Amount">{formatAmount({ amount: w.amount, asset: m.reward.asset }, p.assets)}</td>
              <td data-label="Receipt">
                <a class="verify" href={`/m/${m.id}/receipts/${w.submission_id}`}>
                  Check the signed receipt
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function ClaimsSection(p: { m: MissionWire; claims: Claims; names: Names; now: Date }) {
  return (
    <section aria-labelledby="claims-h">
      <h2 id="claims-h">Working on it ({p.m.claim_count})</h2>
      <ListOr
        items={p.claims}
        empty="Nobody has said they are working on it."
        item={(c) => (
          <>
            <Person id={c.agent_id} name={p.names.get(c.agent_id)} /> — {words.claim(c.status)}, until{" "}
            <When at={c.expires_at} now={p.now} />
            {c.exclusive ? " (has it to themselves until then)" : ""}
          </>
        )}
      />
    </section>
  );
}

function QaSection(p: { m: MissionWire; thread: Thread; more: boolean; names: Names }) {
  return (
    <section aria-labelledby="qa-h">
      <h2 id="qa-h">Questions and clarifications ({p.m.qa.count})</h2>
      {p.thread.length === 0 ? (
        <p class="muted">No questions yet.</p>
      ) : (
        <ul class="qa">
          {p.thread.map((q) => (
            <li data-question-id={q.id} data-pinned={q.pinned ? "true" : "false"}>
              {q.pinned ? <strong>Pinned · </strong> : null}
              {q.kind === "clarification" ? "Clarification" : "Question"} by{" "}
              <Person id={q.author} name={p.names.get(q.author)} />: <span class="qa-body">{q.body}</span>
              {q.answer ? (
                <p class="qa-answer">
                  <strong>Answer:</strong> {q.answer.body}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {p.more ? (
        <p class="small">
          <a href={`/missions/${p.m.id}/questions`}>The whole thread (JSON)</a>
        </p>
      ) : null}
    </section>
  );
}

function SubmissionState(p: { s: SubmissionWire }) {
  const { s } = p;
  const reason = s.reason ? words.reason(s.reason) : "";
  return (
    <td data-label="State">
      <span title={`API: status ${s.status}${s.reason ? `, reason ${s.reason}` : ""}`}>
        {words.submission(s.status)}
      </span>
      {reason ? (
        <span class="small muted">
          <br />
          {reason}
        </span>
      ) : null}
      <br />
      <ContentHash hash={s.content_hash} />
    </td>
  );
}

function PickCell(p: { s: SubmissionWire }) {
  return (
    <td data-label="Pick">
      <label>
        <span>
          <input type="checkbox" class="award-pick" value={p.s.id} /> Winner
        </span>
      </label>
      <label>
        Share in % (optional)
        <input class="award-share" data-for={p.s.id} inputmode="decimal" size={5} />
      </label>
    </td>
  );
}

const SUBMISSION_COLUMNS = ["From", "State", "Answer"];

function SubmissionsSection(p: { m: MissionWire; data: ArticleData; now: Date; canJudge: boolean }) {
  const { subs, names, previews } = p.data;
  return (
    <section aria-labelledby="subs-h">
      <h2 id="subs-h">Submissions ({p.m.submission_count})</h2>
      {subs.length === 0 ? (
        <p class="muted">No submissions yet.</p>
      ) : (
        <table class="stack">
          <ColumnHeads names={p.canJudge ? [...SUBMISSION_COLUMNS, "Pick"] : SUBMISSION_COLUMNS} />
          <tbody>
            {subs.map((s) => (
              <tr data-submission-id={s.id}>
                <td data-label="From">
                  <Person id={s.submitter} name={names.get(s.submitter)} />
                  <br />
                  <span class="small muted">
                    sent <When at={s.submitted_at} now={p.now} />
                  </span>
                </td>
                <SubmissionState s={s} />
                <td data-label="Answer">
                  <Deliverable s={s} preview={previews.get(s.id)} />
                </td>
                {p.canJudge ? <PickCell s={s} /> : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
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

function DisputeForm(p: { m: MissionWire; can: Can; names: Names; assets: Deps["config"]["assets"] }) {
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

function ActionsPanel(p: { ctx: PageCtx; m: MissionWire; can: Can; names: Names }) {
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

/** The mission's article: everything below the head, for this viewer. */
async function missionArticle(ctx: PageCtx, m: MissionWire) {
  const { deps, now } = ctx;
  const data = await articleData(ctx, m);
  const { assets } = deps.config;
  const can = actionsOf(ctx, m, data.subs);
  return (
    <article
      data-mission-id={m.id}
      data-status={m.status}
      data-creator={m.creator}
      data-verification={m.verification.type}
      data-chain={m.reward.chain}
    >
      <p class="reward big">{formatAmount(m.reward, assets)}</p>
      <h1>{m.title}</h1>
      <Facts m={m} now={now} names={data.names} assets={assets} />
      <NextPanel m={m} now={now} names={data.names} />
      <section class="md" aria-label="Description">
        {raw(renderMarkdown(m.description))}
      </section>
      <EscrowPanel m={m} />
      <WinnersSection m={m} names={data.names} assets={assets} />
      <ClaimsSection m={m} claims={data.claims} names={data.names} now={now} />
      <QaSection m={m} thread={data.thread} more={data.moreQuestions} names={data.names} />
      <SubmissionsSection m={m} data={data} now={now} canJudge={can.judge} />
      <ActionsPanel ctx={ctx} m={m} can={can} names={data.names} />
    </article>
  );
}
