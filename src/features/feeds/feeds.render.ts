import { Feed, type Item } from "feed";
import type { MissionWire } from "../missions";

// XML 1.0 §2.2 forbids C0 controls other than TAB/LF/CR, U+FFFE/U+FFFF and lone surrogates; C1
// controls are allowed but "discouraged", and no mission text needs them. Stripping (not
// escaping) is the only option: XML has no escape for these characters.
const FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const stripControl = (s: string): string => s.replace(FORBIDDEN, "");

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * Text for a CDATA section written by `feed` (through xml-js). xml-js splits only the FIRST
 * `]]>` of a CDATA value (`String.replace` with a string pattern), so a second one would end the
 * section early and break the document: the occurrences after the first are split here the same
 * way. test/feeds/feeds.int.test.ts round-trips a title with several `]]>` through a real parser, so a
 * library change that alters this is caught.
 */
function cdataText(s: string): string {
  const clean = stripControl(s);
  const first = clean.indexOf("]]>");
  if (first < 0) return clean;
  const head = clean.slice(0, first + 3);
  return head + clean.slice(first + 3).replaceAll("]]>", "]]]]><![CDATA[>");
}

const DESCRIPTION_CHARS = 2000;

export interface FeedMeta {
  format: FeedFormat;
  publicUrl: string;
  /** Atom `updated` and the channel's lastBuildDate. */
  updated: Date;
  /** RFC 5005 §3 paged-feed links (absolute URLs): the first page, and the next (older) one if any. */
  paging?: { first: string; next: string | null };
}

/** The creator's track record in one line (feeds list missions with it). */
function creatorRecordLine(r: NonNullable<MissionWire["creator_record"]>): string {
  const ratio = r.paid_ratio === null ? "no ratio yet" : `${Math.round(r.paid_ratio * 100)}% paid`;
  const delay =
    r.median_award_delay_seconds === null
      ? ""
      : `, median ${Math.round(r.median_award_delay_seconds / 3600)} h from deadline to award`;
  return `Creator: ${r.posted} posted, ${r.paid} paid (${ratio}), ${r.voided} voided, ${r.never_judged} never judged, ${r.disputes_lost} disputes lost${delay}`;
}

/** One summary line per fact a solver filters on (reward, deadline, verification, tags, creator). */
function summaryHtml(m: MissionWire): string {
  const text =
    m.description.length > DESCRIPTION_CHARS ? `${m.description.slice(0, DESCRIPTION_CHARS)}…` : m.description;
  return [
    `<p>Reward: ${escapeHtml(m.reward.amount)} ${escapeHtml(m.reward.asset)} (base units, ${escapeHtml(m.reward.chain)})</p>`,
    `<p>Deadline: ${escapeHtml(m.deadline)}</p>`,
    `<p>Verification: ${escapeHtml(m.verification.type)}</p>`,
    `<p>Tags: ${m.tags.map(escapeHtml).join(", ") || "none"}</p>`,
    ...(m.creator_record ? [`<p>${escapeHtml(creatorRecordLine(m.creator_record))}</p>`] : []),
    // Reward, deadline and text above are the current ones; say it was changed.
    ...(m.amendments_count > 0 ? [`<p>Amended: ${m.amendments_count} (${escapeHtml(m.amendments_url)})</p>`] : []),
    `<p>${escapeHtml(text)}</p>`,
  ].join("\n");
}

const OABP_NS = "https://oabp.dev/ns/feed/1";

function item(m: MissionWire, publicUrl: string, rss: boolean): Item {
  const tagScheme = `${publicUrl}/missions?tag=`;
  const typeScheme = `${publicUrl}/missions?verification_type=`;
  return {
    // Atom declares title type="html" (RFC 4287 §3.1.1.2), so it is escaped HTML there;
    // an RSS 2.0 title is plain text.
    title: cdataText(rss ? m.title : escapeHtml(m.title)),
    id: m.view_url,
    link: m.view_url,
    date: new Date(m.updated_at),
    published: new Date(m.created_at),
    description: cdataText(summaryHtml(m)),
    author: [{ name: m.creator, link: `${publicUrl}/agents/${m.creator}` }],
    // Atom requires `term`; `name` becomes the RSS category text and the Atom label.
    category: [
      ...m.tags.map((t) => ({ name: t, term: t, scheme: tagScheme, domain: tagScheme })),
      { name: m.verification.type, term: m.verification.type, scheme: typeScheme, domain: typeScheme },
    ],
    // RSS only (feed ignores item extensions in Atom): the machine-readable facts.
    extensions: [
      {
        name: "oabp:mission",
        objects: {
          _attributes: { "xmlns:oabp": OABP_NS },
          "oabp:id": m.id,
          "oabp:reward_amount": m.reward.amount,
          "oabp:reward_asset": m.reward.asset,
          "oabp:reward_chain": m.reward.chain,
          "oabp:deadline": m.deadline,
          "oabp:verification_type": m.verification.type,
          "oabp:status": m.status,
          ...(m.creator_record && {
            "oabp:creator_record": {
              _attributes: {
                posted: String(m.creator_record.posted),
                paid: String(m.creator_record.paid),
                voided: String(m.creator_record.voided),
                never_judged: String(m.creator_record.never_judged),
                disputes_lost: String(m.creator_record.disputes_lost),
                ...(m.creator_record.paid_ratio !== null && { paid_ratio: String(m.creator_record.paid_ratio) }),
                ...(m.creator_record.median_award_delay_seconds !== null && {
                  median_award_delay_seconds: String(m.creator_record.median_award_delay_seconds),
                }),
              },
            },
          }),
          "oabp:amendments_count": m.amendments_count,
        },
      },
    ],
  };
}

export type FeedFormat = "rss" | "atom";

export function renderFeed(missions: MissionWire[], meta: FeedMeta): string {
  const { publicUrl, format } = meta;
  const feed = new Feed({
    id: `${publicUrl}/feed.atom`,
    title: "OABP open missions",
    description: "Newest open missions: reward, deadline, verification type and tags",
    link: `${publicUrl}/`,
    updated: meta.updated,
    generator: "oabp-server",
    language: "en",
    feedLinks: { rss: `${publicUrl}/feed.xml`, atom: `${publicUrl}/feed.atom` },
    // RFC 4287 §4.1.1: an entry without an author needs a feed-level one; entries carry theirs too.
    author: { name: "OABP server", link: publicUrl },
    copyright: "Mission texts belong to their creators",
  });
  for (const m of missions) feed.addItem(item(m, publicUrl, format === "rss"));
  const doc = format === "rss" ? feed.rss2() : feed.atom1();
  return meta.paging ? withPagingLinks(doc, format, meta.paging) : doc;
}

/**
 * RFC 5005 §3 (paged feeds): `first` and `next` link relations, so a crawler that wants history
 * walks older pages by following `next` (the list's keyset cursor, stable under inserts) instead
 * of guessing query strings. Atom carries them as `atom:link` children of `feed`; RSS 2.0 as
 * `atom:link` children of `channel` (the namespace `feed` already declares for `rel="self"`).
 */
function withPagingLinks(doc: string, format: FeedFormat, paging: { first: string; next: string | null }): string {
  const tag = format === "rss" ? "atom:link" : "link";
  const links = [
    `<${tag} rel="first" href="${escapeXml(paging.first)}"/>`,
    ...(paging.next ? [`<${tag} rel="next" href="${escapeXml(paging.next)}"/>`] : []),
  ].join("");
  const anchor = format === "rss" ? /<channel>/ : /<feed[^>]*>/;
  return doc.replace(anchor, (open) => `${open}${links}`);
}

const escapeXml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

/** A sitemaps.org document: one `<entry>` per URL with its `<loc>` and optional `<lastmod>`, inside `<root>`. */
function sitemapXml(root: string, entry: string, urls: { loc: string; lastmod?: Date }[]): string {
  const body = urls
    .map((u) => {
      const lastmod = u.lastmod ? `<lastmod>${u.lastmod.toISOString()}</lastmod>` : "";
      return `  <${entry}><loc>${escapeXml(u.loc)}</loc>${lastmod}</${entry}>`;
    })
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</${root}>\n`;
}

/** sitemaps.org 0.9; the caller bounds the list to 50 000 URLs. */
export const renderSitemap = (urls: { loc: string; lastmod?: Date }[]): string => sitemapXml("urlset", "url", urls);

/** sitemaps.org sitemap index: `<sitemap>` entries with `<loc>` and optional `<lastmod>`. */
export const renderSitemapIndex = (files: { loc: string; lastmod?: Date }[]): string =>
  sitemapXml("sitemapindex", "sitemap", files);
