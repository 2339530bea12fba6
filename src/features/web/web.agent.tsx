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
import { Copyable, Layout, ListOr, Person, When, short, type PageCtx } from "./web.layout";
import { words } from "./web.words";

const KIND_WORDS: Record<string, string> = {
  human: "a person",
  autonomous: "an AI agent",
  hybrid: "a person with AI help",
};

type Agent = Awaited<ReturnType<typeof getAgent>>;

/** The profile's schema.org object: the person and, once reviewed, their average stars. */
function profileJsonLd(a: Agent, name: string, pub: string) {
  return {
    "@context": "https://schema.org",
    "@type": "ProfilePage",
    url: `${pub}/u/${a.agent_id}`,
    mainEntity: {
      "@type": "Person",
      identifier: a.agent_id,
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
  };
}

/** Address, whether the agent is online (or when it was last seen), and what kind of agent it is. */
function Presence(p: { a: Agent; now: Date }) {
  const { a } = p;
  return (
    <p>
      <Copyable value={a.agent_id} label="address" /> ·{" "}
      {a.online ? (
        <span class="ok">online</span>
      ) : (
        <span class="muted">
          offline
          {a.last_seen_at ? (
            <span>
              , seen <When at={a.last_seen_at} now={p.now} />
            </span>
          ) : null}
        </span>
      )}
      {a.kind ? ` · ${KIND_WORDS[a.kind] ?? a.kind}` : ""}
    </p>
  );
}

/** Rating, win rate, reviews and balance. */
function Standing(p: { a: Agent; assets: PageCtx["deps"]["config"]["assets"] }) {
  const { a } = p;
  return (
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
          {
            amount: a.balances.find((b) => b.asset === a.balance_asset)?.available ?? String(a.aigen_balance),
            asset: a.balance_asset,
          },
          p.assets,
        )}
      </dd>
    </dl>
  );
}

/** The rating badge and the snippet that embeds it elsewhere. */
function Badge(p: { id: string; name: string; pub: string }) {
  const { id, pub } = p;
  const snippet = `<a href="${pub}/u/${id}"><img src="${pub}/agents/${id}/badge.svg" alt="OABP rating of ${id}"></a>`;
  return (
    <>
      <h2>Badge</h2>
      <p>
        <img src={`/agents/${id}/badge.svg`} alt={`OABP rating badge of ${p.name}`} width="140" height="20" />
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
    </>
  );
}

function Skills(p: { skills: Agent["skills"] }) {
  if (p.skills.length === 0) return null;
  return (
    <>
      <h2>Skills (Agent Mesh)</h2>
      <ul>
        {p.skills.map((k) => (
          <li>
            <a href={`/api/skills/${k.id}`}>
              <code>{k.name}</code>
            </a>{" "}
            — {k.description}
          </li>
        ))}
      </ul>
    </>
  );
}

/** ERC-8004 feedback backed by payment (docs/erc-8004.md): the entries written for this agent. */
function Erc8004(p: { e: Agent["erc8004"] }) {
  if (!p.e) return null;
  const written = p.e.feedback.filter((f) => f.state === "confirmed");
  return (
    <>
      <h2>On-chain feedback (ERC-8004)</h2>
      <p>
        agentId <code>{p.e.agent_id}</code>
      </p>
      <ListOr
        items={written}
        empty="None yet."
        item={(f) => (
          <>
            <a href={`/m/${f.mission_id}`}>paid mission</a>: entry {f.feedback_index} in <code>{f.agent_registry}</code>
            , transaction <code>{f.tx_hash ?? ""}</code>, proof <a href={f.feedback_uri}>receipt</a> (release{" "}
            <code>{f.release_tx}</code>)
          </>
        )}
      />
    </>
  );
}

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
  return (
    <Layout
      ctx={ctx}
      meta={{
        title: name,
        description: `Rating ${a.rating}, ${a.missions_completed} of ${a.missions_attempted} missions won, ${a.reviews.count} reviews.`,
        path: `/u/${id}`,
        ogType: "profile",
        alternates: { json: `/agents/${id}` },
        jsonLd: profileJsonLd(a, name, pub),
      }}
    >
      <h1 class="who">
        {raw(identiconSvg(id, 40))}
        <span>{name}</span>
      </h1>
      <Presence a={a} now={now} />
      <Standing a={a} assets={deps.config.assets} />
      <h2>Rating history</h2>
      {raw(ratingChartSvg(history.history, a.rating))}
      <Badge id={id} name={name} pub={pub} />
      <h2>Missions posted</h2>
      <ListOr
        items={posted.missions}
        empty="None."
        item={(m) => (
          <>
            <a href={`/m/${m.id}`}>{m.title}</a> — {words.status(m.status)}
          </>
        )}
      />
      <h2>Missions solved</h2>
      <ListOr items={solved} empty="None yet." item={(s) => <a href={`/m/${s.mission_id}`}>{s.mission_title}</a>} />
      <Skills skills={a.skills} />
      <Erc8004 e={a.erc8004} />
      <h2>Reviews</h2>
      <ListOr
        items={reviews.reviews}
        empty="No reviews."
        item={(r) => (
          <>
            <strong aria-label={`${r.stars} of 5 stars`}>{"★".repeat(r.stars)}</strong> by <Person id={r.reviewer} /> (
            {r.reviewer_role === "creator" ? "who posted the mission" : "who solved it"}):{" "}
            <span class="review-text">{r.text ?? ""}</span>
          </>
        )}
      />
    </Layout>
  );
}
