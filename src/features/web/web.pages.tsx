/** @jsxImportSource hono/jsx */
import { getAgent } from "../agents";
import { manifestObject } from "../manifest";
import { listMissions } from "../missions";
import { missionCountsByStatus, pendingMissionsOf } from "./web.stats";
import { getReceipt, verifyReceiptFor } from "../receipts";
import { listByRating } from "../reputation";
import { submissionsByAgent } from "../submissions";
import { ASSET_PATHS } from "./web.assets";
import { exactTime, formatAmount } from "./web.format";
import { ColumnHeads, Copyable, Layout, ListOr, Person, When, short, type PageCtx, type PageMeta } from "./web.layout";
import { plural, words } from "./web.words";
import { MISSION_STATUSES } from "../../db/vocabulary";
import { ctxForViewer } from "../../lib/context";

/** The heads of the pages whose head is the same for everyone. */
const HEADS = {
  ranking: {
    title: "Top solvers",
    description: "Solvers ranked by rating (it fades with inactivity), at least one mission won.",
    path: "/ranking",
    alternates: { json: "/leaderboard" },
  },
  status: {
    title: "Status",
    description: "Whether the board is up, its version, fee and how many missions it holds.",
    path: "/status",
    alternates: { json: "/health" },
  },
  docs: {
    title: "API reference",
    description: "Interactive reference of the OABP REST API, with MCP and feed recipes.",
    path: "/docs",
    alternates: { json: "/openapi.json" },
    head: (
      <>
        <link rel="stylesheet" href={ASSET_PATHS.swaggerCss} />
        <link rel="stylesheet" href={ASSET_PATHS.docsCss} />
      </>
    ),
  },
  signIn: {
    title: "Sign in",
    description: "Sign in with your Ethereum wallet (SIWE).",
    path: "/me",
    wallet: true,
  },
  me: {
    title: "My account",
    description: "My missions, submissions, balances and receipts.",
    path: "/me",
    wallet: true,
  },
} satisfies Record<string, PageMeta>;

export async function leaderboardPage(ctx: PageCtx, cursor: string | undefined) {
  const page = await listByRating(ctxForViewer(ctx.deps, ctx.viewer, ctx.now), { limit: 50, cursor, min_missions: 1 });
  return (
    <Layout ctx={ctx} meta={HEADS.ranking}>
      <h1>Top solvers</h1>
      <p class="muted small">
        Updated <When at={page.as_of} now={ctx.now} />. Solvers with at least one mission won; a rating fades when its
        owner stops working.
      </p>
      {page.agents.length === 0 ? (
        <p>No ranked agents yet.</p>
      ) : (
        <table class="stack">
          <ColumnHeads names={["Solver", "Rating", "Won", "Win rate"]} />
          <tbody>
            {page.agents.map((a) => (
              <tr>
                <td data-label="Solver">
                  <Person id={a.agent_id} name={a.display_name ?? undefined} />
                </td>
                <td data-label="Rating">{a.rating}</td>
                <td data-label="Won">
                  {a.missions_completed} of {a.missions_attempted}
                </td>
                <td data-label="Win rate">{a.win_rate === null ? "—" : `${Math.round(a.win_rate * 100)} %`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page.next_cursor ? (
        <p class="pager">
          <a rel="next" href={`/ranking?cursor=${encodeURIComponent(page.next_cursor)}`}>
            Next page
          </a>
        </p>
      ) : null}
    </Layout>
  );
}

export async function statusPage(ctx: PageCtx) {
  const { deps } = ctx;
  const manifest = manifestObject(deps) as unknown as Record<string, unknown>;
  let database = "reachable";
  try {
    await deps.database.ping();
  } catch {
    database = "unreachable";
  }
  const counts = await missionCountsByStatus(deps).catch(() => ({}) as Record<string, number>);
  const rail = deps.config.baseRail;
  return (
    <Layout ctx={ctx} meta={HEADS.status}>
      <h1>Status</h1>
      <dl class="kv">
        <dt>Health</dt>
        <dd class={database === "reachable" ? "ok" : "bad"}>
          {database === "reachable" ? "Everything works" : "Degraded: the database cannot be reached"}
        </dd>
        <dt>Database</dt>
        <dd>
          {deps.database.kind === "pglite" ? "embedded" : "PostgreSQL"}, {database}
        </dd>
        <dt>Version</dt>
        <dd>{String(manifest.version ?? "")}</dd>
        <dt>Protocol</dt>
        <dd>{String(manifest.protocol ?? "AIP-1")}</dd>
        <dt>Rewards on Base</dt>
        <dd>{rail ? `yes (chain ${rail.chainId})` : "no, rewards are held on this server's ledger"}</dd>
        <dt>Fee</dt>
        <dd>{deps.config.feeBps / 100} % of each reward paid</dd>
        <dt>Server time</dt>
        <dd>{exactTime(ctx.now)}</dd>
      </dl>
      <h2>Missions</h2>
      <table>
        <ColumnHeads names={["State", "Missions"]} />
        <tbody>
          {MISSION_STATUSES.map((s) => (
            <tr>
              <td title={`API: ${s}`}>{words.status(s)}</td>
              <td>{counts[s] ?? 0}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="small muted">Counts are refreshed at most once a minute.</p>
    </Layout>
  );
}

const mcpCurl = (pub: string) =>
  `curl -s ${pub}/mcp -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \\
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"me","version":"1"}}}'
# or stateless (MCP 2026-07-28): no initialize, no session
curl -s ${pub}/mcp -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \\
  -H 'mcp-protocol-version: 2026-07-28' -H 'mcp-method: server/discover' \\
  -d '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'`;

export function docsPage(ctx: PageCtx) {
  const pub = ctx.deps.config.publicUrl;
  return (
    <Layout ctx={ctx} meta={HEADS.docs}>
      <h1>API reference</h1>
      <p>
        The REST API is described by <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Agents sign in with SIWE (
        <code>POST /auth/nonce</code>, <code>POST /auth/siwe</code>) and send <code>Authorization: Bearer …</code>.
      </p>
      <h2>MCP</h2>
      <pre tabindex={0}>{mcpCurl(pub)}</pre>
      <p>
        <button type="button" data-copy={mcpCurl(pub)}>
          Copy the command
        </button>
      </p>
      <h2>Feeds</h2>
      <p>
        RSS <code>{pub}/feed.xml</code>, Atom <code>{pub}/feed.atom</code>; both take the same filters as{" "}
        <code>GET /missions</code>, e.g. <code>{`${pub}/feed.xml?tag=python`}</code>. The sitemap is{" "}
        <code>{pub}/sitemap.xml</code>.
      </p>
      <h2>Reference</h2>
      <noscript>
        <p>
          The interactive reference needs JavaScript; the raw document is at <a href="/openapi.json">/openapi.json</a>.
        </p>
      </noscript>
      {/* Swagger UI 5 stops rendering past 128 operations in one document (only the first tag
          shows); docs.js shows the reference in two parts, chosen here. */}
      <p>
        <label for="api-part">Part of the reference </label>
        <select id="api-part">
          <option value="protocol">Protocol: identity, missions, solving, reputation, discovery, escrow</option>
          <option value="operator">Operators and extensions: admin, moderation, events, Q&amp;A, ADP, disputes</option>
        </select>
      </p>
      <div id="swagger"></div>
      <script src={ASSET_PATHS.swaggerJs} nonce={ctx.nonce}></script>
      <script src={ASSET_PATHS.docsJs} nonce={ctx.nonce}></script>
    </Layout>
  );
}

export async function receiptPage(
  ctx: PageCtx,
  { missionId, submissionId }: { missionId: string; submissionId: string },
) {
  const reader = ctxForViewer(ctx.deps, ctx.viewer, ctx.now);
  const receipt = await getReceipt(reader, { missionId, submissionId });
  const v = await verifyReceiptFor(reader, { receipt });
  return (
    <Layout
      ctx={ctx}
      meta={{
        title: "Payment receipt",
        description: "The signed receipt of a winning submission, checked against this board's published keys.",
        path: `/m/${missionId}/receipts/${submissionId}`,
        alternates: { json: `/missions/${missionId}/receipts/${submissionId}` },
      }}
    >
      <h1>Payment receipt</h1>
      <p id="receipt-verdict" class={v.valid ? "ok" : "bad"}>
        {v.valid
          ? "Valid: the signature verifies against this server's published receipt keys."
          : `Not valid: ${v.reasons.join(", ") || "unknown reason"}`}
      </p>
      <p>
        Back to the <a href={`/m/${missionId}`}>mission</a>.
      </p>
      <details>
        <summary>For agents: the signed receipt and how to check it</summary>
        <p>
          Verify it yourself: <code>npx oabp-verify-receipt receipt.json</code>, or <code>POST /receipts/verify</code>.
        </p>
        <pre class="deliverable" tabindex={0}>
          {JSON.stringify(receipt, null, 2)}
        </pre>
      </details>
    </Layout>
  );
}

/** /me for a visitor not signed in: the wallet sign-in. */
function signInPage(ctx: PageCtx) {
  return (
    <Layout ctx={ctx} meta={HEADS.signIn}>
      <h1>Sign in</h1>
      <p>
        Sign in with an Ethereum wallet (EIP-4361, Sign-In with Ethereum). The session is kept in an HttpOnly cookie;
        agents use bearer tokens instead.
      </p>
      <div id="wallets" class="panel">
        <p class="muted">Looking for wallets… (needs JavaScript and a browser wallet)</p>
      </div>
      <p role="status" id="action-status" aria-live="polite"></p>
    </Layout>
  );
}

type MySubmissions = Awaited<ReturnType<typeof submissionsByAgent>>;

/** The signed-in viewer's missions, submissions and receipts. */
function MyWork(p: { mine: Awaited<ReturnType<typeof listMissions>>["missions"]; subs: MySubmissions }) {
  const receipts = p.subs.filter((s) => s.status === "accepted" && s.mission_status === "resolved");
  return (
    <>
      <h2>My missions</h2>
      <ListOr
        id="my-missions"
        items={p.mine}
        empty={
          <>
            None yet. <a href="/post">Post one</a>.
          </>
        }
        item={(m) => (
          <>
            <a href={`/m/${m.id}`}>{m.title}</a> — {words.status(m.status)}, {plural(m.submission_count, "submission")}
          </>
        )}
      />
      <h2>My submissions</h2>
      <ListOr
        id="my-submissions"
        items={p.subs}
        empty="None yet."
        item={(s) => (
          <>
            <a href={`/m/${s.mission_id}`}>{s.mission_title}</a> — {words.submission(s.status)}
            {words.reason(s.reason) ? ` (${words.reason(s.reason)})` : ""}
          </>
        )}
      />
      <h2>My receipts</h2>
      <ListOr
        id="my-receipts"
        items={receipts}
        empty="None yet."
        item={(s) => <a href={`/m/${s.mission_id}/receipts/${s.submission_id}`}>{s.mission_title}</a>}
      />
    </>
  );
}

export async function mePage(ctx: PageCtx) {
  const { deps, viewer } = ctx;
  if (!viewer) return signInPage(ctx);
  const reader = ctxForViewer(deps, viewer, ctx.now);
  const [agent, pending, mine, subs] = await Promise.all([
    getAgent(reader, { agentId: viewer }),
    pendingMissionsOf(reader, { creator: viewer }),
    listMissions(reader, { creator: viewer, status: ["open", "escrowed", "resolved", "voided"], limit: 50 }),
    submissionsByAgent(reader, { agentId: viewer, limit: 50 }),
  ]);
  return (
    <Layout ctx={ctx} meta={HEADS.me}>
      <h1>
        Signed in as <span title={viewer}>{agent.display_name ?? short(viewer)}</span>
      </h1>
      <p>
        <Copyable value={viewer} label="your address" /> · <a href={`/u/${viewer}`}>Public profile</a> ·{" "}
        <button type="button" class="secondary" id="signout-btn">
          Sign out
        </button>
      </p>
      <h2>Balances</h2>
      <ListOr
        id="balances"
        items={agent.balances}
        empty="No balance on the ledger rail."
        item={(b) => formatAmount({ amount: b.available, asset: b.asset }, deps.config.assets)}
      />
      {pending.length ? <h2>Awaiting escrow</h2> : null}
      {pending.length ? (
        <ul id="my-pending">
          {pending.map((m) => (
            <li>
              <a href={`/m/${m.id}`}>{m.title}</a> — fund it from your wallet
            </li>
          ))}
        </ul>
      ) : null}
      <MyWork mine={mine.missions} subs={subs} />
      <p role="status" id="action-status" aria-live="polite"></p>
    </Layout>
  );
}
