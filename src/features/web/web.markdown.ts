import { Marked, type Tokens } from "marked";

// Mission descriptions are Markdown written by anyone: raw HTML
// is shown as text, links keep only http(s)/mailto targets and never carry referrer or ranking
// credit, and images become plain links (the CSP forbids remote images anyway).

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

const SAFE_HREF = /^(https?:|mailto:)/i;
/** Hard bound on what is rendered: descriptions are ≤ 50 000 characters already (missions.schemas.ts). */
const MARKDOWN_MAX_CHARS = 60_000;

function safeHref(href: string): string | null {
  const h = href.trim();
  return SAFE_HREF.test(h) ? h : null;
}

const md = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(token.text);
    },
    link(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, token: Tokens.Link) {
      const text = this.parser.parseInline(token.tokens);
      const href = safeHref(token.href);
      if (!href) return text;
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
      return `<a href="${escapeHtml(href)}"${title} rel="nofollow ugc noopener noreferrer">${text}</a>`;
    },
    image(token: Tokens.Image) {
      const href = safeHref(token.href);
      const alt = escapeHtml(token.text || "image");
      return href ? `<a href="${escapeHtml(href)}" rel="nofollow ugc noopener noreferrer">[${alt}]</a>` : `[${alt}]`;
    },
  },
});

/** Markdown → HTML with no raw HTML and no script-capable URL in any attribute. */
export function renderMarkdown(source: string): string {
  return md.parse(source.slice(0, MARKDOWN_MAX_CHARS)) as string;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/**
 * Markdown → plain text of at most `max` characters (cut at a word, with "…"): card snippets and
 * og:description. Reads only the first 4 000 characters of the source (bounded work per card).
 */
export function markdownToText(source: string, max = 160): string {
  const html = md.parse(source.slice(0, 4_000)) as string;
  const text = html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!)
    .replace(/\s+/g, " ")
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?-]+$/, "")}…`;
}
