import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { agents } from "../../db/schema/index";
import { dbOf, type Ctx } from "../../lib/context";
import { effectiveRating } from "./decay";
import { START_RATING } from "./elo";
import { parseAgentId } from "../../lib/agent-id";

// AIP-1 §5 "embeddable rating badge": a shields.io "flat" style SVG, `OABP rating | 1412`.
// Everything interpolated into the document goes through xmlText/xmlAttr, even values we
// believe safe (numbers, addresses): the display name is user-written.

const BADGE_LABEL = "OABP rating";

/** Rating bands → shields.io palette. 1400 (the start) is yellowgreen; decay floors at 1000. */
const RATING_BANDS: ReadonlyArray<{ min: number; color: string }> = [
  { min: 1800, color: "#4c1" }, // brightgreen
  { min: 1600, color: "#97ca00" }, // green
  { min: 1400, color: "#a4a61d" }, // yellowgreen
  { min: 1200, color: "#dfb317" }, // yellow
  { min: 1000, color: "#fe7d37" }, // orange
  { min: -Infinity, color: "#e05d44" }, // red
];

export function badgeColor(rating: number): string {
  return RATING_BANDS.find((b) => rating >= b.min)!.color;
}

// XML 1.0 §2.2 Char: anything else (C0 controls, lone surrogates, U+FFFE/F) makes the document
// ill-formed however it is escaped, so it is replaced.
const NOT_XML_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function xmlText(s: string): string {
  return s.replace(NOT_XML_CHAR, "\uFFFD").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function xmlAttr(s: string): string {
  return xmlText(s)
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\t/g, "&#9;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;");
}

// Advance widths of Verdana at 11px in tenths of a pixel (shields.io measures the same font);
// unknown characters count as a wide glyph. Only the box sizes depend on this: textLength makes
// renderers fit the text to the box whatever font they have.
const WIDTHS: Record<string, number> = {
  " ": 39,
  "0": 70,
  "1": 70,
  "2": 70,
  "3": 70,
  "4": 70,
  "5": 70,
  "6": 70,
  "7": 70,
  "8": 70,
  "9": 70,
  "-": 50,
  ".": 40,
  ",": 40,
  ":": 50,
  "/": 50,
  "(": 50,
  ")": 50,
  a: 67,
  b: 69,
  c: 58,
  d: 69,
  e: 66,
  f: 39,
  g: 69,
  h: 70,
  i: 30,
  j: 38,
  k: 65,
  l: 30,
  m: 107,
  n: 70,
  o: 67,
  p: 69,
  q: 69,
  r: 47,
  s: 57,
  t: 43,
  u: 70,
  v: 65,
  w: 90,
  x: 65,
  y: 65,
  z: 58,
  A: 75,
  B: 76,
  C: 77,
  D: 85,
  E: 70,
  F: 63,
  G: 85,
  H: 84,
  I: 46,
  J: 50,
  K: 76,
  L: 61,
  M: 93,
  N: 82,
  O: 87,
  P: 66,
  Q: 87,
  R: 77,
  S: 75,
  T: 68,
  U: 81,
  V: 75,
  W: 109,
  X: 75,
  Y: 68,
  Z: 75,
};

function textWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += WIDTHS[ch] ?? 100;
  return w;
}

export interface BadgeInput {
  agentId: string;
  displayName: string | null;
  rating: number;
}

/** The badge document; deterministic, so its hash is a strong validator. */
export function renderBadge(b: BadgeInput): string {
  const message = String(Math.trunc(b.rating));
  const color = badgeColor(b.rating);
  // Box widths in tenths of a pixel: text plus 5px padding each side, rounded to whole pixels.
  const labelTl = textWidth(BADGE_LABEL);
  const messageTl = textWidth(message);
  const lw = Math.round((labelTl + 100) / 10);
  const mw = Math.round((messageTl + 100) / 10);
  const w = lw + mw;
  const lx = lw * 5; // centre, ×10
  const mx = lw * 10 + mw * 5;
  const who = b.displayName ? `${b.displayName} (${b.agentId})` : b.agentId;
  const title = `${BADGE_LABEL}: ${message} — ${who}`;
  // The shadow sits one pixel below the text (y ×10).
  const text = (x: number, tl: number, s: string, shadow: boolean) =>
    `<text${shadow ? ` aria-hidden="true"` : ""} x="${x}" y="${shadow ? 150 : 140}" fill="${shadow ? "#010101" : "#fff"}"${shadow ? ` fill-opacity=".3"` : ""} transform="scale(.1)" textLength="${tl}">${xmlText(s)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${xmlAttr(`${BADGE_LABEL}: ${message}`)}">`,
    `<title>${xmlText(title)}</title>`,
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>`,
    `<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${xmlAttr(color)}"/><rect width="${w}" height="20" fill="url(#s)"/></g>`,
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">`,
    text(lx, labelTl, BADGE_LABEL, true),
    text(lx, labelTl, BADGE_LABEL, false),
    text(mx, messageTl, message, true),
    text(mx, messageTl, message, false),
    `</g></svg>`,
  ].join("");
}

/** Strong ETag: a hash of the exact bytes served. */
export function badgeEtag(svg: string): string {
  return `"${createHash("sha256").update(svg, "utf8").digest("base64url").slice(0, 32)}"`;
}

/**
 * RFC 9110 §13.1.2 If-None-Match: `*` or any listed tag matching by WEAK comparison (so a
 * W/-prefixed copy of our tag, as some proxies send back, still matches).
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (t: string) => t.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((t) => t.trim() === "*" || opaque(t) === opaque(etag));
}

/** GET /agents/{id}/badge.svg: the decayed rating at request time (AIP-1 §5); unknown → 1400. */
export async function agentBadge(
  ctx: Ctx,
  { agentId }: { agentId: string },
): Promise<{ svg: string; etag: string; rating: number }> {
  const id = parseAgentId(agentId);
  const [row] = await dbOf(ctx)
    .select({
      displayName: agents.displayName,
      rating: agents.rating,
      lastActiveAt: agents.lastActiveAt,
      decayWeeksApplied: agents.decayWeeksApplied,
    })
    .from(agents)
    .where(eq(agents.id, id));
  const rating = row ? effectiveRating(ctx, row) : START_RATING;
  const svg = renderBadge({ agentId: id, displayName: row?.displayName ?? null, rating });
  return { svg, etag: badgeEtag(svg), rating };
}
