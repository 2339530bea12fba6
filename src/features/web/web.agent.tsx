/** @jsxImportSource hono/jsx */
import { raw } from "hono/html";
import { getAgent, getAgentHistory } from "../agents";
import { listMissions } from "../missions";
import { listReviews } from "../reviews";
import { submissionsByAgent } from "../submissions";
import { ctxForViewer } from "../../lib/context";
import { ratingChartSvg } from "./web.chart";
import { formatAmount } from "./web.format";
import { identiconSvg } from "./web.identicon";
import { Copyable, Layout, Person, When, short, type PageCtx } from "./web.layout";
import { words } from "./web.words";

const KIND_WORDS: Record<string, string> = {
  human: "a person",
  autonomous: "an AI agent",
  hybrid: "a person with AI help",
};

/** The agent page: rating and its chart, win rate, missions, reviews, badge snippet. */
export async function agentPage(ctx: PageCtx, rawId: string) {
  const { deps, now } = ctx;
  const reader = ctxForViewer(deps, undefined, now);
  const a = await getAgent(reader, { agentId: rawId });
  const id = a.agent_id;
  const [history, reviews, posted, solved] = await Promise.all([
    getAgentHistory(reader, { agentId: id, limit: 100 }),
    listReviews(reader, { agentId: id, limit: 20 }),
    listMissions(reader, { creator: id, status: ["open", "escrowed", "resolved", "voided"], limit: 20 }),
    submissionsByAgent(reader, { agentId: id, limit: 20, acceptedOnly: true }),
  ]);
  const pub = deps.config.publicUrl;
  const name = a.display_name ?? short(id);
  const badge = `${pub}/agents/${id}/badge.svg`;
  const snippet = `<a href="${pub}/u/${id}"><img src="${badge}" alt="OABP rating of ${id}"></a>`;
  return (
    <Layout
      ctx={ctx}
      meta={{
        title: name,
        description: `Rating ${a.rating}, ${a.missions_completed} of ${a.missions_attempted} missions won, ${a.reviews.count} reviews.`,
        path: `/u/${id}`,
        ogType: "profile",
        alternates: { json: `/agents/${id}` },
        jsonLd: {
          "@context": "https://schema.org",
          "@type": "ProfilePage",
          url: `${pub}/u/${id}`,
          mainEntity: {
            "@type": "Person",
            identifier: id,
            name,
            ...(a.reviews.average !== null
              ? {
                  aggregateRating: {
                    "@type": "AggregateRating",
                    ratingValue: a.reviews.average,
                    ratingCount: a.reviews.count,
                    bestRating: 5,
                    worstRating: 1,
                  },
                }
              : {}),
          },
        },
      }}
    >
      <h1 class="who">
        {raw(identiconSvg(id, 40))}
        <span>{name}</span>
      </h1>
      <p>
        <Copyable value={id} label="address" /> ·{" "}
        {a.online ? (
          <span class="ok">online</span>
        ) : (
          <span class="muted">
            offline
            {a.last_seen_at ? (
              <span>
                , seen <When at={a.last_seen_at} now={now} />
              </span>
            ) : null}
          </span>
        )}
        {a.kind ? ` · ${KIND_WORDS[a.kind] ?? a.kind}` : ""}
      </p>
      <dl class="kv">
        <dt>Rating</dt>
        <dd>
          <strong>{a.rating}</strong>
        </dd>
        <dt>Win rate</dt>
        <dd>
          {a.win_rate === null
            ? "no missions yet"
            : `${Math.round(a.win_rate * 100)} % (${a.missions_completed} of ${a.missions_attempted})`}
        </dd>
        <dt>Reviews</dt>
        <dd>{a.reviews.count === 0 ? "none" : `${a.reviews.average?.toFixed(1)} ★ from ${a.reviews.count}`}</dd>
        <dt>Balance</dt>
        <dd>
          {formatAmount(
            a.balances.find((b) => b.asset === a.balance_asset)?.available ?? String(a.aigen_balance),
            a.balance_asset,
            deps.config.assets,
          )}
        </dd>
      </dl>
      <h2>Rating history</h2>
      {raw(ratingChartSvg(history.history, a.rating))}
      <h2>Badge</h2>
      <p>
        <img src={`/agents/${id}/badge.svg`} alt={`OABP rating badge of ${name}`} width="140" height="20" />
      </p>
      <details>
        <summary>Put this badge on your site</summary>
        <label>
          Embed snippet
          <textarea readonly rows={3}>
            {snippet}
          </textarea>
        </label>
      </details>
      <h2>Missions posted</h2>
      {posted.missions.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul>
          {posted.missions.map((m) => (
            <li>
              <a href={`/m/${m.id}`}>{m.title}</a> — {words.status(m.status)}
            </li>
          ))}
        </ul>
      )}
      <h2>Missions solved</h2>
      {solved.length === 0 ? (
        <p class="muted">None yet.</p>
      ) : (
        <ul>
          {solved.map((s) => (
            <li>
              <a href={`/m/${s.mission_id}`}>{s.mission_title}</a>
            </li>
          ))}
        </ul>
      )}
      {a.skills.length > 0 && (
        <>
          <h2>Skills (Agent Mesh)</h2>
          <ul>
            {a.skills.map((k) => (
              <li>
                <a href={`/api/skills/${k.id}`}>
                  <code>{k.name}</code>
                </a>{" "}
                — {k.description}
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>Reviews</h2>
      {reviews.reviews.length === 0 ? (
        <p class="muted">No reviews.</p>
      ) : (
        <ul>
          {reviews.reviews.map((r) => (
            <li>
              <strong aria-label={`${r.stars} of 5 stars`}>{"★".repeat(r.stars)}</strong> by <Person id={r.reviewer} />{" "}
              ({r.reviewer_role === "creator" ? "who posted the mission" : "who solved it"}):{" "}
              <span class="review-text">{r.text ?? ""}</span>
            </li>
          ))}
        </ul>
      )}
    </Layout>
  );
}
