import { randomBytes } from "node:crypto";
import type { Context } from "hono";
import type { AppEnv } from "../../http/types";

// "Safe by construction": a strict CSP with a per-response nonce (no inline script
// without it), no framing, no MIME sniffing, no referrer leak to links in user Markdown.

export const newNonce = () => randomBytes(18).toString("base64");

export interface CspOptions {
  /** /docs: Swagger UI sets inline styles; no user content is rendered on that page. */
  inlineStyles?: boolean;
}

function contentSecurityPolicy(nonce: string, o: CspOptions = {}): string {
  return [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self'${o.inlineStyles ? " 'unsafe-inline'" : ""}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join("; ");
}

/** The headers of every page: its CSP with this response's nonce, and the cache rule (private unless told). */
export function setPageHeaders(c: Context<AppEnv>, o: CspOptions & { nonce: string; cache?: string }): void {
  c.header("Content-Security-Policy", contentSecurityPolicy(o.nonce, o));
  c.header("X-Content-Type-Options", "nosniff");
  c.header("X-Frame-Options", "DENY");
  c.header("Referrer-Policy", "strict-origin-when-cross-origin");
  // Pages embed the viewer's CSRF token and a per-response nonce: never shared by caches.
  c.header("Cache-Control", o.cache ?? "private, no-cache");
  c.header("Vary", "Cookie, Accept, Accept-Encoding");
}
