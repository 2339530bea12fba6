import { isIP } from "node:net";
import { isLocalhostName } from "../../lib/ip-policy";
import type { SafeFetcher } from "../../lib/safe-fetch";

// Which hub URLs a federation report may carry. Nothing is fetched here (OADP: no automatic
// fetching of reported URLs); what can be known without DNS is checked — https, no credentials,
// a public literal address, a public-looking DNS name. If the operator enables verification, the
// job fetches through the SSRF-safe fetcher, which checks the resolved address at connect time.

const MAX_HUB_URL_LENGTH = 2048;

type HubUrlRefusal =
  "invalid_url" | "url_too_long" | "https_required" | "credentials_in_url" | "blocked_address" | "invalid_host";

export type HubUrlVerdict =
  { ok: true; url: string; domain: string } | { ok: false; reason: HubUrlRefusal; detail?: string };

// Special-use names that never denote a public hub: RFC 6761 (test, example, invalid, localhost),
// RFC 6762 (local), RFC 8375 (home.arpa), ICANN's private-use "internal", and the reverse zones.
const SPECIAL_SUFFIXES = [
  "test",
  "example",
  "invalid",
  "localhost",
  "local",
  "home.arpa",
  "internal",
  "lan",
  "home",
  "intranet",
  "corp",
  "in-addr.arpa",
  "ip6.arpa",
  "onion",
];
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function checkHostname(host: string): HubUrlVerdict | undefined {
  const h = host.replace(/\.$/, "");
  if (isLocalhostName(h)) return { ok: false, reason: "blocked_address", detail: "localhost" };
  const labels = h.split(".");
  // A single label resolves through the server's search domains — to an internal host.
  if (labels.length < 2) return { ok: false, reason: "invalid_host", detail: "single_label" };
  if (!labels.every((l) => LABEL.test(l))) return { ok: false, reason: "invalid_host", detail: "bad_label" };
  // An all-numeric last label is an IPv4 address in disguise (e.g. 127.1 or 0x7f.1 forms).
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return { ok: false, reason: "invalid_host", detail: "numeric_tld" };
  const special = SPECIAL_SUFFIXES.find((s) => h === s || h.endsWith(`.${s}`));
  if (special) return { ok: false, reason: "blocked_address", detail: `special_use:${special}` };
  return undefined;
}

/**
 * Validates and normalises a reported hub URL: lower-case scheme and host (WHATWG URL), no default
 * port, no fragment, no trailing slash — the dedup key. `domain` is the host (with a non-default
 * port): the unit of verification and of the scan interval.
 */
export function checkHubUrl(raw: string, fetcher: SafeFetcher): HubUrlVerdict {
  if (raw.length > MAX_HUB_URL_LENGTH) return { ok: false, reason: "url_too_long" };
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: "invalid_url" };
  }
  if (url.protocol !== "https:") return { ok: false, reason: "https_required", detail: url.protocol };
  if (url.username !== "" || url.password !== "") return { ok: false, reason: "credentials_in_url" };
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(host) !== 0) {
    const verdict = fetcher.checkAddress(host, url.port !== "" ? Number(url.port) : 443);
    if (!verdict.ok) return { ok: false, reason: "blocked_address", detail: verdict.range };
  } else {
    const refused = checkHostname(host);
    if (refused) return refused;
  }
  const path = url.pathname.replace(/\/+$/, "");
  const normalised = `${url.origin}${path}${url.search}`;
  if (normalised.length > MAX_HUB_URL_LENGTH) return { ok: false, reason: "url_too_long" };
  return { ok: true, url: normalised, domain: url.host };
}

const LAYER_ALIASES: Record<string, string> = {
  "http-header": "header",
  http_header: "header",
  headers: "header",
  "x-agent-protocol": "header",
  wellknown: "well-known",
  well_known: "well-known",
  ".well-known": "well-known",
  md: "markdown",
  html: "html-meta",
  meta: "html-meta",
  html_meta: "html-meta",
  robots: "robots-txt",
  "robots.txt": "robots-txt",
  robots_txt: "robots-txt",
  dns: "dns-txt",
  dns_txt: "dns-txt",
  txt: "dns-txt",
};

/** OADP signal layers under one spelling each; other tokens are kept as given. */
export const normaliseSignalLayer = (layer: string | undefined): string =>
  layer ? (LAYER_ALIASES[layer] ?? layer) : "unknown";
