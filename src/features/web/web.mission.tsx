/** @jsxImportSource hono/jsx */
import { raw } from "hono/html";
import { listClaims } from "../claims";
import { listQuestions } from "../qa";
import { getMission, type MissionWire } from "../missions";
import { listSubmissions, readSubmissionContent, type SubmissionWire } from "../submissions";
import { ctxForViewer } from "../../lib/context";
import { formatAmount, relativeTime, STATUS_WORDS, verificationInWords } from "./web.format";
import { Layout, short, type PageCtx } from "./web.layout";
import { renderMarkdown } from "./web.markdown";

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
  if (!uri) return <span class="muted">hidden until the mission is resolved</span>;
  if (p.preview !== undefined)
    return (
      <pre class="deliverable" tabindex={0}>
        {p.preview}
      </pre>
    );
  // Only https links are clickable; any other scheme is shown as text.
  return uri.startsWith("https://") ? (
    <a href={uri} rel="nofollow ugc noopener noreferrer">
      {uri.slice(0, 200)}
    </a>
  ) : (
    <code>{uri.slice(0, 200)}</code>
  );
}

function EscrowPanel(p: { m: MissionWire }) {
  const e = p.m.escrow;
  if (!e) return <p>Escrow: held on the ledger rail by the server (hash-chained ledger).</p>;
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
      <h2>Escrow on Base</h2>
      <dl class="kv">
        <dt>Chain</dt>
        <dd>{e.chain_id}</dd>
        <dt>Contract</dt>
        <dd>
          <code>{e.contract}</code>
        </dd>
        <dt>Mission key</dt>
        <dd>
          <code>{e.mission_key}</code>
        </dd>
        <dt>Funding call</dt>
        <dd>
          <code>{e.fund_call}</code>
        </dd>
        <dt>Deposit</dt>
        <dd>
          {e.deposit ? (
            <span>
              <code>{String(e.deposit.tx_hash ?? "")}</code> ({e.deposit.status})
            </span>
          ) : (
            "not yet funded"
          )}
        </dd>
        <dt>Payout</dt>
        <dd>{e.payout_tx_hash ? <code>{e.payout_tx_hash}</code> : p.m.payout_status}</dd>
      </dl>
    </div>
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
    description: m.description.slice(0, 500),
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
        description: `${reward} · ${verificationInWords(m.verification.type, m.verification.params)} ${m.description.slice(0, 140)}`,
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
  const [subs, claims, qa] = await Promise.all([
    listSubmissions(ctxForViewer(deps, viewer, now), { missionId: id, limit: 50 }),
    listClaims(ctxForViewer(deps, viewer, now), { missionId: id, limit: 50 }),
    listQuestions(ctxForViewer(deps, viewer, now), { missionId: id, limit: 50 }),
  ]);
  // Pinned entries first, then the rest of the thread in its order.
  const thread = [...qa.questions.filter((q) => q.pinned), ...qa.questions.filter((q) => !q.pinned)];
  const previews = await deliverablePreviews(ctx, id, subs.submissions);
  const isCreator = viewer === m.creator;
  const reward = formatAmount(m.reward.amount, m.reward.asset, deps.config.assets);
  const winners = m.resolution?.winners ?? [];
  return (
    <article
      data-mission-id={m.id}
      data-status={m.status}
      data-creator={m.creator}
      data-verification={m.verification.type}
      data-chain={m.reward.chain}
    >
      <h1>{m.title}</h1>
      <div class="facts">
        <span>
          Reward <strong>{reward}</strong> ({m.reward.chain})
        </span>
        <span class={`status status-${m.status}`}>
          {STATUS_WORDS[m.status] ?? m.status}
          {m.phase && m.phase !== m.status ? ` · ${m.phase}` : ""}
        </span>
        <span>
          Deadline{" "}
          <time datetime={m.deadline}>
            {m.deadline.replace("T", " ").slice(0, 16)} UTC ({relativeTime(new Date(m.deadline), now)})
          </time>
        </span>
        <span>
          by <a href={`/u/${m.creator}`}>{short(m.creator)}</a>
        </span>
      </div>
      {m.tags.length ? (
        <p>
          {m.tags.map((t) => (
            <a class="tag" href={`/?tag=${encodeURIComponent(t)}`}>
              {t}
            </a>
          ))}
        </p>
      ) : null}
      <p>
        <strong>How the winner is chosen:</strong> {verificationInWords(m.verification.type, m.verification.params)}
      </p>
      {m.warnings.length ? <p class="notice">{m.warnings.join(" ")}</p> : null}
      <section class="md" aria-label="Description">
        {raw(renderMarkdown(m.description))}
      </section>
      <EscrowPanel m={m} />

      {m.resolution ? (
        <section class="panel" aria-labelledby="res-h">
          <h2 id="res-h">Resolution</h2>
          <p>
            {m.resolution_reason ?? ""} {m.resolution.resolved_at ? `at ${m.resolution.resolved_at}` : ""}
          </p>
          <table>
            <thead>
              <tr>
                <th>Winner</th>
                <th>Submission</th>
                <th>Amount</th>
                <th>Receipt</th>
              </tr>
            </thead>
            <tbody>
              {winners.map((w) => (
                <tr>
                  <td>
                    <a href={`/u/${w.agent_id}`}>{short(w.agent_id)}</a>
                  </td>
                  <td>
                    <code>{w.submission_id}</code>
                  </td>
                  <td>{formatAmount(w.amount, m.reward.asset, deps.config.assets)}</td>
                  <td>
                    <a href={`/missions/${m.id}/receipts/${w.submission_id}`}>JSON</a> ·{" "}
                    <a class="verify" href={`/m/${m.id}/receipts/${w.submission_id}`}>
                      Verify
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      {m.status === "voided" ? (
        <p class="notice">
          This mission was voided ({m.resolution_reason ?? "no reason given"}); the reward was refunded.
        </p>
      ) : null}

      <section aria-labelledby="claims-h">
        <h2 id="claims-h">Claims ({m.claim_count})</h2>
        {claims.claims.length === 0 ? (
          <p class="muted">No active claims.</p>
        ) : (
          <ul>
            {claims.claims.map((c) => (
              <li>
                <a href={`/u/${c.agent_id}`}>{short(c.agent_id)}</a> — {c.status}, until {c.expires_at}
                {c.exclusive ? " (exclusive)" : ""}
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
                <a href={`/u/${q.author}`}>{short(q.author)}</a>: <span class="qa-body">{q.body}</span>
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
          <table>
            <thead>
              <tr>
                <th>Submitter</th>
                <th>Status</th>
                <th>Deliverable</th>
                {isCreator && m.status === "open" ? <th>Award</th> : null}
              </tr>
            </thead>
            <tbody>
              {subs.submissions.map((s) => (
                <tr data-submission-id={s.id}>
                  <td>
                    <a href={`/u/${s.submitter}`}>{short(s.submitter)}</a>
                    <br />
                    <span class="small muted">{s.submitted_at}</span>
                  </td>
                  <td>
                    {s.status}
                    <br />
                    <span class="small muted">{s.reason}</span>
                    <br />
                    <code class="small">{s.content_hash}</code>
                  </td>
                  <td>
                    <Deliverable s={s} preview={previews.get(s.id)} />
                  </td>
                  {isCreator && m.status === "open" ? (
                    <td>
                      <label>
                        Pick
                        <input type="checkbox" class="award-pick" value={s.id} />
                      </label>
                      <label>
                        Share (bps, optional)
                        <input class="award-share" data-for={s.id} inputmode="numeric" size={6} />
                      </label>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      {m.status !== "open" && m.status !== "pending_escrow" ? null : (
        <section class="panel" id="actions" aria-labelledby="act-h">
          <h2 id="act-h">Act on this mission</h2>
          {!viewer ? (
            <p>
              <a href="/me">Sign in with your wallet</a> to claim, submit or judge (needs JavaScript).
            </p>
          ) : null}
          {viewer && isCreator && m.status === "open" ? (
            <div>
              {m.verification.type === "creator_judges" ? (
                <button type="button" id="award-btn">
                  Award selected submissions
                </button>
              ) : null}{" "}
              <button type="button" class="secondary" id="void-btn">
                Void mission
              </button>
            </div>
          ) : null}
          {viewer && isCreator && m.status === "pending_escrow" && m.escrow ? (
            <div>
              <button type="button" id="fund-btn">
                Fund from wallet (permit or approve, then fundUntil)
              </button>
            </div>
          ) : null}
          {viewer && !isCreator && m.status === "open" ? (
            <div>
              <button type="button" id="claim-btn">
                Claim
              </button>
              <form id="submit-form">
                <label>
                  Answer (sent inline, up to 64 KB)<textarea name="content" maxlength={65536}></textarea>
                </label>
                <p class="small muted">
                  Or a file: its SHA-256 is computed in your browser and sent with the URI where you host it.
                </p>
                <label>
                  Deliverable URI (https://, ipfs://, ar://)
                  <input name="content_uri" size={50} />
                </label>
                <label>
                  File to hash
                  <input type="file" name="file" />
                </label>
                <button type="submit">Submit</button>
              </form>
            </div>
          ) : null}
          <p role="status" id="action-status" aria-live="polite"></p>
        </section>
      )}
    </article>
  );
}
