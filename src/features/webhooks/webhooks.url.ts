import { isIP } from "node:net";
import { checkPublicAddress, isLocalhostName } from "../../lib/ip-policy";
import type { SafeFetcher } from "../../lib/safe-fetch";

// Which URLs a webhook may point at (docs/design.md "Security": webhook URLs go through the SSRF-safe
// fetcher). Checked once at subscription time, for what can be known without DNS; every delivery
// is then fetched through deps.fetcher, which checks the resolved address at connect time.

export const MAX_WEBHOOK_URL_LENGTH = 2048;

type UrlRefusal = "invalid_url" | "url_too_long" | "https_required" | "credentials_in_url" | "blocked_address";

export type UrlVerdict = { ok: true; url: string } | { ok: false; reason: UrlRefusal; detail?: string };

/**
 * https only, no userinfo, not a localhost name, not a literal address the fetcher would refuse.
 * Plain http is accepted for one case: a literal address that is not public yet which the
 * fetcher was configured to allow — the tests' local receiver. In production no such address
 * exists, so http is never accepted there.
 */
export function checkWebhookUrl(raw: string, fetcher: SafeFetcher): UrlVerdict {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, reason: "url_too_long" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "invalid_url" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, reason: "https_required", detail: url.protocol };
  // A secret in the URL would be stored and shown back in every listing; and the fetcher refuses it.
  if (url.username !== "" || url.password !== "") return { ok: false, reason: "credentials_in_url" };
  const refused = checkHost(url, fetcher);
  if (refused) return refused;
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, reason: "url_too_long" };
  return { ok: true, url: url.href };
}

/** Not a localhost name, not a literal address the fetcher refuses; http only to a non-public literal it allows. */
function checkHost(url: URL, fetcher: SafeFetcher): (UrlVerdict & { ok: false }) | undefined {
  if (isLocalhostName(url.hostname)) return { ok: false, reason: "blocked_address", detail: "localhost" };
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  const literal = isIP(host) !== 0;
  if (literal) {
    const verdict = fetcher.checkAddress(host, port);
    if (!verdict.ok) return { ok: false, reason: "blocked_address", detail: verdict.range };
  }
  if (url.protocol === "http:" && !(literal && !checkPublicAddress(host).ok))
    return { ok: false, reason: "https_required", detail: "http:" };
  return undefined;
}
