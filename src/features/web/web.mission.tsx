/** @jsxImportSource hono/jsx */
import { raw } from "hono/html";
import { getMissionOp, type MissionWire } from "../missions";
import { ctxForViewer } from "../../lib/context";
import { formatAmount, verificationInWords } from "./web.format";
import { Layout, type PageCtx } from "./web.layout";
import { markdownToText, renderMarkdown } from "./web.markdown";
import { actionsOf, ActionsPanel } from "./web.mission-actions";
import { articleData } from "./web.mission-data";
import { ClaimsSection, QaSection, SubmissionsSection } from "./web.mission-lists";
import { EscrowPanel, Facts, NextPanel, WinnersSection } from "./web.mission-panels";

// The mission page: description as safe Markdown, reward and escrow, countdown,
// claims, submissions as the visibility rules allow (the service decides: content_uri is null
// for third parties until resolution), winners and receipts, and the wallet actions. Its parts:
// the data it reads (web.mission-data.ts), the panels about the mission (web.mission-panels.tsx),
// its lists (web.mission-lists.tsx) and the viewer's actions (web.mission-actions.tsx).

export async function missionPage(ctx: PageCtx, id: string) {
  const { deps, now, viewer } = ctx;
  const m = await getMissionOp.verb(ctxForViewer(deps, viewer, now), { id });
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

/** The mission's article: everything below the head, for this viewer. */
async function missionArticle(ctx: PageCtx, m: MissionWire) {
  const { deps, now } = ctx;
  const data = await articleData(ctx, m);
  const { assets } = deps.config;
  const can = actionsOf(ctx, { mission: m, subs: data.subs });
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
