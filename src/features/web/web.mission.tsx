/** @jsxImportSource hono/jsx */
import { raw } from "hono/html";
import { listClaims } from "../claims";
import { listQuestions } from "../qa";
import { displayNamesOf } from "../agents";
import { getMission, voidRefusal, type MissionWire } from "../missions";
import { appealRefusal } from "../verification";
import { listSubmissions, readSubmissionContent, type SubmissionWire } from "../submissions";
import { ctxForViewer } from "../../lib/context";
import type { Deps } from "../../deps";
import { assetOf, exactTime, formatAmount, verificationInWords } from "./web.format";
import { Copyable, Layout, Person, When, type PageCtx } from "./web.layout";
import { markdownToText, renderMarkdown } from "./web.markdown";
import { Deadline } from "./web.board";
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

/** Names of the people on the page, for their labels beside the identicons. */
type Names = Map<string, string>;

/** What happens next, in words: when it closes, who judges, when it pays, or what became of it. */
function NextPanel(p: { m: MissionWire; now: Date; names: Names; deps: Deps }) {
  const { m, now, names } = p;
  const a = m.award;
  const when = (at: string | null | undefined) =>
    at ? (
      <span>
        {exactTime(new Date(at), { short: true })} (<When at={at} now={now} />)
      </span>
    ) : null;
  let text: unknown;
  if (m.status === "pending_escrow")
    text = "Waiting for the creator to fund the reward; then it opens for submissions.";
  else if (m.status === "open")
    text = (
      <span>
        Open for submissions until {when(m.deadline)}.{" "}
        {m.verification.type === "creator_judges" ? "Then the creator picks the winner." : ""}
      </span>
    );
  else if (m.status === "escrowed" && a && m.phase === "appeal")
    text = (
      <span>
        The creator picked{" "}
        {a.winners.map((w, i) => (
          <span>
            {i ? ", " : ""}
            <Person id={w.agent_id} name={names.get(w.agent_id)} />
          </span>
        ))}
        .{" "}
        <strong id="pays-on">Pays on {exactTime(new Date(a.appeal_deadline), { short: true })} unless disputed</strong>{" "}
        (<When at={a.appeal_deadline} now={now} />
        ).
      </span>
    );
  else if (m.status === "escrowed" && a && m.phase === "voting")
    text = (
      <span>The pick was disputed: voters decide until {when(a.voting_deadline)}. The reward waits for them.</span>
    );
  else if (m.status === "escrowed")
    text = (
      <span>
        Submissions are closed; {words.phase(m.phase)}
        {m.judging_deadline ? <span> until {when(m.judging_deadline)}</span> : null}.
      </span>
    );
  else if (m.status === "resolved")
    text = (
      <span>
        Decided {m.resolution?.resolved_at ? <When at={m.resolution.resolved_at} now={now} /> : null}
        {m.resolution_reason ? `: ${words.reason(m.resolution_reason)}` : ""}. Payment:{" "}
        <strong id="payout-words">{words.payout(m.payout_status).toLowerCase()}</strong>.
      </span>
    );
  else if (m.status === "voided")
    text = `Cancelled: ${words.reason(m.resolution_reason) || "no reason given"}. The reward went back to the creator.`;
  return (
    <section class="panel next" aria-labelledby="next-h" id="next">
      <h2 id="next-h">What happens next</h2>
      <p>{text}</p>
    </section>
  );
}

export async function missionPage(ctx: PageCtx, id: string) {
  const { deps, now, viewer } = ctx;
  const m = await getMission(ctxForViewer(deps, viewer, now), { id });
  const reward = formatAmount(m.reward.amount, m.reward.asset, deps.config.assets);
  const pub = deps.config.publicUrl;
  // Anonymous readers share one rendering per mission and minute from the mission-list cache
  // (cleared on every committed change to the mission row: submissions and claims bump its
  // counters). A signed-in viewer sees their own visibility and actions, so is never cached.
  const article = viewer
    ? await missionArticle(ctx, m)
    : await deps.missionLists.get(`web:m:${m.id}:${Math.floor(now.getTime() / 60_000)}`, async () =>
        String(await missionArticle(ctx, m)),
      );
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
        description: `${reward} · ${verificationInWords(m.verification.type, m.verification.params, deps.config.assets)} ${markdownToText(m.description, 140)}`,
        path: `/m/${m.id}`,
        ogType: "article",
        jsonLd,
        alternates: { json: `/missions/${m.id}` },
        wallet: true,
      }}
    >
      {raw(String(article))}
    </Layout>
  );
}

/** The mission's article: everything below the head, for this viewer. */
async function missionArticle(ctx: PageCtx, m: MissionWire) {
  const { deps, now, viewer } = ctx;
  const id = m.id;
  const reader = ctxForViewer(deps, viewer, now);
  // The mission row's counters say when a list is empty: no read for it (docs/web.md "Page caching").
  const [subs, claims, qa] = await Promise.all([
    m.submission_count === 0
      ? { submissions: [] as SubmissionWire[] }
      : listSubmissions(reader, { missionId: id, limit: 50 }),
    listClaims(reader, { missionId: id, limit: 50 }),
    m.qa.count === 0
      ? { questions: [] as Awaited<ReturnType<typeof listQuestions>>["questions"], next_cursor: null }
      : listQuestions(reader, { missionId: id, limit: 50 }),
  ]);
  // Pinned entries first, then the rest of the thread in its order.
  const thread = [...qa.questions.filter((q) => q.pinned), ...qa.questions.filter((q) => !q.pinned)];
  const [previews, names] = await Promise.all([
    deliverablePreviews(ctx, id, subs.submissions),
    displayNamesOf(reader, [
      m.creator,
      ...subs.submissions.map((s) => s.submitter),
      ...claims.claims.map((c) => c.agent_id),
      ...thread.map((q) => q.author),
      ...(m.award?.winners.map((w) => w.agent_id) ?? []),
      ...(m.resolution?.winners.map((w) => w.agent_id) ?? []),
    ]),
  ]);
  const { assets } = deps.config;
  const isCreator = viewer === m.creator;
  const reward = formatAmount(m.reward.amount, m.reward.asset, assets);
  const winners = m.resolution?.winners ?? [];
  // Actions: only those the same rules the API applies would accept from this viewer now.
  const canJudge = isCreator && m.status === "open" && m.verification.type === "creator_judges";
  const canVoid = isCreator && voidRefusal({ status: m.status, submissionCount: m.submission_count }) === null;
  const canSolve = !!viewer && !isCreator && m.status === "open";
  const canDisputeNow = !!viewer && !!m.award && appealRefusal(m, viewer, now) === null;
  const appeal = m.verification.params.appeal as { vote_token: string; min_vote: string } | false | undefined;
  const voteAsset = appeal ? assetOf(appeal.vote_token, assets) : undefined;
  const awarded = new Set(m.award?.winners.map((w) => w.submission_id) ?? []);
  // A dispute names another pending submission that should have won, never the viewer's own.
  const disputable = subs.submissions.filter(
    (s) => s.status === "pending" && !awarded.has(s.id) && s.submitter !== viewer,
  );
  const canDispute = canDisputeNow && disputable.length > 0;
  return (
    <article
      data-mission-id={m.id}
      data-status={m.status}
      data-creator={m.creator}
      data-verification={m.verification.type}
      data-chain={m.reward.chain}
    >
      <p class="reward big">{reward}</p>
      <h1>{m.title}</h1>
      <div class="facts">
        <span class={`status status-${m.status}`} title={`API: status ${m.status}, phase ${m.phase}`}>
          {words.status(m.status)}
          {m.phase && m.status === "escrowed" ? ` · ${words.phase(m.phase)}` : ""}
        </span>
        {m.status === "open" || m.status === "pending_escrow" ? <Deadline m={m} now={now} /> : null}
        <span>{plural(m.submission_count, "submission")}</span>
        <span>
          Posted by <Person id={m.creator} name={names.get(m.creator)} />
        </span>
      </div>
      {m.tags.length ? (
        <p class="tags">
          {m.tags.map((t) => (
            <a class="tag" href={`/?tag=${encodeURIComponent(t)}`}>
              {t}
            </a>
          ))}
        </p>
      ) : null}
      <p>
        <strong>How the winner is chosen:</strong>{" "}
        <span title={`API: verification ${m.verification.type}`}>
          {verificationInWords(m.verification.type, m.verification.params, assets)}
        </span>
      </p>
      {m.warnings.length ? <p class="notice">{m.warnings.map((w) => w.replace(/^[a-z_]+: /, "")).join(" ")}</p> : null}
      <NextPanel m={m} now={now} names={names} deps={deps} />
      <section class="md" aria-label="Description">
        {raw(renderMarkdown(m.description))}
      </section>
      <EscrowPanel m={m} />

      {m.resolution ? (
        <section class="panel" aria-labelledby="res-h">
          <h2 id="res-h">Winners</h2>
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">Winner</th>
                <th scope="col">Amount</th>
                <th scope="col">Receipt</th>
              </tr>
            </thead>
            <tbody>
              {winners.map((w) => (
                <tr>
                  <td data-label="Winner">
                    <Person id={w.agent_id} name={names.get(w.agent_id)} />
                  </td>
                  <td data-label="Amount">{formatAmount(w.amount, m.reward.asset, assets)}</td>
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
      ) : null}

      <section aria-labelledby="claims-h">
        <h2 id="claims-h">Working on it ({m.claim_count})</h2>
        {claims.claims.length === 0 ? (
          <p class="muted">Nobody has said they are working on it.</p>
        ) : (
          <ul>
            {claims.claims.map((c) => (
              <li>
                <Person id={c.agent_id} name={names.get(c.agent_id)} /> — {words.claim(c.status)}, until{" "}
                <When at={c.expires_at} now={now} />
                {c.exclusive ? " (has it to themselves until then)" : ""}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="qa-h">
        <h2 id="qa-h">Questions and clarifications ({m.qa.count})</h2>
        {thread.length === 0 ? (
          <p class="muted">No questions yet.</p>
        ) : (
          <ul class="qa">
            {thread.map((q) => (
              <li data-question-id={q.id} data-pinned={q.pinned ? "true" : "false"}>
                {q.pinned ? <strong>Pinned · </strong> : null}
                {q.kind === "clarification" ? "Clarification" : "Question"} by{" "}
                <Person id={q.author} name={names.get(q.author)} />: <span class="qa-body">{q.body}</span>
                {q.answer ? (
                  <p class="qa-answer">
                    <strong>Answer:</strong> {q.answer.body}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {qa.next_cursor ? (
          <p class="small">
            <a href={`/missions/${m.id}/questions`}>The whole thread (JSON)</a>
          </p>
        ) : null}
      </section>

      <section aria-labelledby="subs-h">
        <h2 id="subs-h">Submissions ({m.submission_count})</h2>
        {subs.submissions.length === 0 ? (
          <p class="muted">No submissions yet.</p>
        ) : (
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">From</th>
                <th scope="col">State</th>
                <th scope="col">Answer</th>
                {canJudge ? <th scope="col">Pick</th> : null}
              </tr>
            </thead>
            <tbody>
              {subs.submissions.map((s) => (
                <tr data-submission-id={s.id}>
                  <td data-label="From">
                    <Person id={s.submitter} name={names.get(s.submitter)} />
                    <br />
                    <span class="small muted">
                      sent <When at={s.submitted_at} now={now} />
                    </span>
                  </td>
                  <td data-label="State">
                    <span title={`API: status ${s.status}${s.reason ? `, reason ${s.reason}` : ""}`}>
                      {words.submission(s.status)}
                    </span>
                    {s.reason && words.reason(s.reason) ? (
                      <span class="small muted">
                        <br />
                        {words.reason(s.reason)}
                      </span>
                    ) : null}
                    <br />
                    <Copyable value={s.content_hash} label="answer fingerprint" />
                  </td>
                  <td data-label="Answer">
                    <Deliverable s={s} preview={previews.get(s.id)} />
                  </td>
                  {canJudge ? (
                    <td data-label="Pick">
                      <label>
                        <span>
                          <input type="checkbox" class="award-pick" value={s.id} /> Winner
                        </span>
                      </label>
                      <label>
                        Share in % (optional)
                        <input class="award-share" data-for={s.id} inputmode="decimal" size={5} />
                      </label>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      {m.status === "open" || m.status === "pending_escrow" || canDispute ? (
        <section class="panel" id="actions" aria-labelledby="act-h">
          <h2 id="act-h">{canDispute ? "Disagree with the pick?" : "Take part"}</h2>
          {!viewer ? (
            <p>
              <a href="/me">Sign in with your wallet</a> to work on it, send an answer or judge (needs JavaScript).
            </p>
          ) : null}
          {canJudge || canVoid ? (
            <div>
              {canJudge ? (
                <p class="small muted">
                  Tick the winner(s) above. With several winners, give each a share in % (together 100), or leave the
                  shares empty to split equally.
                </p>
              ) : null}
              {canJudge ? (
                <button type="button" id="award-btn">
                  Award selected submissions
                </button>
              ) : null}{" "}
              {canVoid ? (
                <button type="button" class="secondary" id="void-btn">
                  Cancel mission and refund the reward
                </button>
              ) : null}
            </div>
          ) : null}
          {isCreator && m.status === "pending_escrow" && m.escrow ? (
            <div>
              <button type="button" id="fund-btn">
                Fund from wallet (permit or approve, then fundUntil)
              </button>
            </div>
          ) : null}
          {canSolve ? (
            <div>
              <button type="button" id="claim-btn">
                I'm working on it
              </button>
              <form id="submit-form">
                <label>
                  Answer (sent as text, up to 64 KB)<textarea name="content" maxlength={65536}></textarea>
                </label>
                <p class="small muted">
                  Or a file: your browser computes its fingerprint (SHA-256) and sends it with the link where you host
                  it.
                </p>
                <label>
                  Link to the file (https://, ipfs:// or ar://)
                  <input name="content_uri" size={30} />
                </label>
                <label>
                  File to fingerprint
                  <input type="file" name="file" />
                </label>
                <button type="submit">Submit</button>
              </form>
            </div>
          ) : null}
          {canDispute && appeal && voteAsset ? (
            <form id="dispute-form" data-decimals={String(voteAsset.decimals)}>
              <p>
                Stake {voteAsset.symbol} on the submission that should have won. Enough stakes (
                {formatAmount((m.verification.params.appeal as { quorum: string }).quorum, voteAsset.symbol, assets)} in
                all) put the pick to a vote; stakes on the losing side are lost, the rest are returned.
              </p>
              <label>
                Should have won
                <select name="submission_id">
                  {disputable.map((s) => (
                    <option value={s.id}>
                      {names.get(s.submitter) ?? `${s.submitter.slice(0, 6)}…${s.submitter.slice(-4)}`}, sent{" "}
                      {exactTime(new Date(s.submitted_at), { short: true })}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Your stake in {voteAsset.symbol} (at least {formatAmount(appeal.min_vote, voteAsset.symbol, assets)})
                <input name="amount" required inputmode="decimal" size={8} />
              </label>
              <button type="submit">Dispute the pick</button>
            </form>
          ) : null}
          <p role="status" id="action-status" aria-live="polite"></p>
        </section>
      ) : null}
    </article>
  );
}
