/** @jsxImportSource hono/jsx */
import type { MissionWire } from "../missions";
import type { SubmissionWire } from "../submissions";
import { ColumnHeads, ContentHash, ListOr, Person, When, type Names } from "./web.layout";
import type { ArticleData, Claims, Thread } from "./web.mission-data";
import { words } from "./web.words";

// The mission page's lists (docs/web.md "Pages"): who is working on it, the Q&A thread, and the
// submissions as the visibility rules allow (the service decides: content_uri is null for third
// parties until resolution), with the creator's pick column when they may judge.

export function ClaimsSection(p: { m: MissionWire; claims: Claims; names: Names; now: Date }) {
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

export function QaSection(p: { m: MissionWire; thread: Thread; more: boolean; names: Names }) {
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

export function SubmissionsSection(p: { m: MissionWire; data: ArticleData; now: Date; canJudge: boolean }) {
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
