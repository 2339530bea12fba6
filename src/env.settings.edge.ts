import { z } from "zod";
import { ReceiptKeyRecordSchema } from "./lib/receipt-keys";
import { contrastOnWhite, flagDefault, int, jsonOf, rate, type Setting } from "./env.settings.schemas";

/** Operations and the edge: tracing, shutdown, judging windows, jobs, gateways, contacts, branding, receipt keys, webhooks, live events, rate and read limits. One part of the settings table; src/env.settings.ts joins the parts, in this order, as SETTINGS. */
export const EDGE_SETTINGS = {
  /**
   * OpenTelemetry traces, off by default: `otlp` loads the SDK and exports spans over
   * OTLP/HTTP; the exporter and resource read the other standard OTEL_* variables themselves.
   */
  OTEL_TRACES_EXPORTER: {
    key: "tracesExporter",
    schema: z.enum(["none", "otlp", "console"]).default("none"),
    shown: "`none`",
    doc:
      "OpenTelemetry traces: `none` (off, no SDK loaded), `otlp` (OTLP/HTTP to `OTEL_EXPORTER_OTLP_ENDPOINT`), " +
      "`console`; `OTEL_SDK_DISABLED=true` also turns them off",
  },
  OABP_SHUTDOWN_TIMEOUT_MS: {
    key: "shutdownTimeoutMs",
    ...int(100, 120_000, 10_000),
    doc: "SIGTERM grace for in-flight requests and job rounds (exit 1 if it runs out)",
  },
  OABP_JUDGING_WINDOW_SECONDS: {
    key: "judgingWindowSeconds",
    ...int(60, 90 * 86_400, 7 * 86_400),
    doc: "creator_judges: judging window after the deadline (7 days) for a mission that states none (`judging_window_seconds`)",
  },
  /** AIP-1 Security "reward griefing": creator_judges awards are disputable unless the creator opts out (`appeal: false`). */
  OABP_APPEAL_DEFAULT: {
    schema: z.enum(["on", "off"]).default("on"),
    shown: "`on`",
    doc:
      "creator_judges awards are disputable unless the creator opts out (`appeal: false`); `off` " +
      "restores immediate awards",
  },
  /** The default appeal's dispute window after an award. */
  OABP_APPEAL_WINDOW_SECONDS: {
    ...int(60, 30 * 86_400, 86_400),
    doc: "the default appeal's dispute window after an award",
  },
  /** Unset: the same length as the judging window. */
  OABP_ORACLE_WINDOW_SECONDS: {
    schema: z.coerce
      .number()
      .int()
      .min(60)
      .max(90 * 86_400)
      .optional(),
    shown: "= judging window",
    doc: "oracle: how long after the deadline the oracle may attest before the default award",
  },
  OABP_JOB_INTERVAL_MS: {
    key: "jobIntervalMs",
    ...int(0, 3_600_000, 1000),
    doc: "background job loop period (`0` = no loop)",
  },
  OABP_IPFS_GATEWAY: {
    key: "ipfsGateway",
    schema: z.string().url().default("https://ipfs.io/ipfs/"),
    shown: "`https://ipfs.io/ipfs/`",
    doc: "gateway through which `ipfs://` deliverables are fetched",
  },
  /** ar:// deliverables are fetched as <gateway><tx id>[/path] (docs/abuse-edge.md). */
  OABP_ARWEAVE_GATEWAY: {
    key: "arweaveGateway",
    schema: z.string().url().default("https://arweave.net/"),
    shown: "`https://arweave.net/`",
    doc: "gateway through which `ar://` deliverables are fetched (`<gateway><tx id>[/path]`, SSRF-safe " + "fetcher)",
  },
  OABP_LIST_CACHE_BYTES: {
    key: "listCacheBytes",
    ...int(0, 1024 * 1024 * 1024, 32 * 1024 * 1024),
    doc: "memory for cached `GET /missions` pages (`0` = no cache)",
  },
  /** RFC 9116 Contact URIs, comma-separated (mailto:, https: or tel:). Unset: mailto:security@<public host>. */
  OABP_SECURITY_CONTACT: {
    schema: z
      .string()
      .transform((s, ctx) => {
        const out = s
          .split(",")
          .map((p) => p.trim())
          .filter(Boolean);
        if (
          out.length === 0 ||
          out.some((u) => !/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+|tel:\+?[0-9().-]+)$/.test(u))
        ) {
          ctx.addIssue({ code: "custom", message: "must be comma-separated mailto:, https: or tel: URIs" });
          return z.NEVER;
        }
        return out;
      })
      .optional(),
    shown: "`mailto:security@<public host>`",
    doc: "`Contact` lines of `/.well-known/security.txt`: comma-separated `mailto:`, `https:` or `tel:` " + "URIs",
  },
  /** §9 manifest contact (mailto: or https://); unset: mailto:admin@<public host>. */
  OABP_CONTACT: {
    schema: z
      .string()
      .regex(/^(mailto:|https:\/\/)\S+$/, "must start with mailto: or https://")
      .optional(),
    shown: "`mailto:admin@<public host>`",
    doc: "`contact` of `/.well-known/oabp.json` (`mailto:` or `https://`)",
  },
  /** The web board's brand (docs/web.md "Brand"): its name in the header, titles and OpenGraph. */
  OABP_BRAND_NAME: {
    key: "brandName",
    schema: z.string().trim().min(1).max(60).default("Open Bounty Board"),
    shown: "`Open Bounty Board`",
    doc: "name of the web board (header, page titles, `og:site_name`)",
  },
  /** Served by this origin or inline: the pages' CSP loads images from 'self' and data: only. */
  OABP_BRAND_LOGO_URL: {
    key: "brandLogoUrl",
    schema: z
      .string()
      .max(65_536)
      .regex(
        /^(\/(?!\/)\S*|data:image\/(png|svg\+xml|webp|jpeg);base64,[A-Za-z0-9+/=]+)$/,
        "must be a path on this server (/...) or a data:image/...;base64 URL",
      )
      .optional(),
    shown: "unset (the name alone)",
    doc: "logo shown before the board's name: a path on this server or a `data:image/…;base64,` URL",
  },
  /**
   * The accent must keep links and buttons readable (WCAG AA, 4.5:1 against white); the dark
   * scheme gets a lighter shade of it (src/features/web/web.brand.ts, docs/web.md "Brand").
   */
  OABP_BRAND_ACCENT: {
    key: "brandAccent",
    schema: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, "must be a #rrggbb colour")
      .refine((c) => contrastOnWhite(c) >= 4.5, "must have a contrast of at least 4.5:1 against white (WCAG AA)")
      .default("#0b57d0"),
    shown: "`#0b57d0`",
    doc: "accent colour of links and buttons (`#rrggbb`, contrast ≥ 4.5:1 on white; dark mode gets a lighter shade of it that reads on the dark page)",
  },
  /** Receipt signing keys (AIP-1 §6.1) as JSON; unset: generated into <data dir>/receipt-keys.json. */
  OABP_RECEIPT_KEYS: {
    key: "receiptKeys",
    schema: jsonOf(z.array(ReceiptKeyRecordSchema).min(1)).optional(),
    shown: "—",
    doc:
      'receipt signing keys as JSON `[{key_id, alg:"ed25519", public_key, private_key?, valid_from, ' +
      "valid_until}]` (raw 32-byte keys, base64url; exactly one with `valid_until: null` and its " +
      "`private_key`). Unset: generated on first start into `<data dir>/receipt-keys.json` (0600); set it " +
      "when several instances serve one database",
  },
  /** Webhook subscriptions and deliveries (events are recorded either way). */
  OABP_WEBHOOKS_ENABLED: {
    key: "webhooksEnabled",
    ...flagDefault(true),
    doc:
      "`false`: the `/webhooks` routes answer 503, nothing is delivered, the manifest omits " +
      "`endpoints.webhooks` (events are still recorded, and purged after 30 days)",
  },
  /** Live events (features/events): open GET /events streams and inbox long polls, per instance. */
  OABP_EVENTS_MAX_CONNECTIONS: {
    key: "eventsMaxConnections",
    ...int(1, 100_000, 1000),
    doc: "open `GET /events` streams plus waiting `GET /agents/me/inbox` long polls on one instance (then 503); a quarter only for parties of a live mission, anonymous streams at most half, a tenth kept for client networks holding none",
  },
  OABP_EVENTS_MAX_PER_IP: {
    key: "eventsMaxPerIp",
    ...int(1, 100_000, 20),
    doc: "open `GET /events` streams plus waiting inbox long polls per client network on one instance (then 429)",
  },
  OABP_INBOX_MAX_WAIT_SECONDS: {
    key: "inboxMaxWaitSeconds",
    ...int(0, 120, 25),
    doc: "longest `wait` of a `GET /agents/me/inbox` long poll (`0` turns long polls off)",
  },
  /** Shared token buckets in Postgres (docs/abuse-edge.md "Rate limits"); false turns every bucket off. */
  OABP_RATE_LIMIT_ENABLED: {
    schema: z.enum(["true", "false"]).default("true"),
    shown: "`true`",
    doc:
      "shared Postgres token buckets on writes and session-creating routes (docs/abuse-edge.md); " +
      "`false` turns them off",
  },
  /** Writes (POST/PUT/PATCH/DELETE and MCP write tools) per client IP. */
  OABP_RATE_LIMIT_WRITE_IP: {
    ...rate(120, 60),
    doc: "`<quota>/<window s>`: anonymous writes (POST/PUT/PATCH/DELETE, MCP write tools) per client network",
  },
  /** Writes per signed-in agent. */
  OABP_RATE_LIMIT_WRITE_AGENT: {
    ...rate(60, 60),
    doc: "writes per signed-in agent",
  },
  /** Writes of signed-in agents per client network (agents are limited per agent first). */
  OABP_RATE_LIMIT_WRITE_NET_AGENTS: {
    ...rate(600, 60),
    doc:
      "writes of signed-in agents per client network (after each agent's own bucket; anonymous writes " +
      "use `OABP_RATE_LIMIT_WRITE_IP`, so an anonymous neighbour cannot starve them)",
  },
  /** Reads (GET/HEAD but the event streams) per caller (agent, else client network), per instance. */
  OABP_RATE_LIMIT_READ: {
    key: "readLimit",
    ...rate(1200, 60),
    doc: "reads (GET/HEAD, not `GET /events`) per caller — the agent, else the client network — per instance (429)",
  },
  /** Reads in flight at once per caller, per instance. */
  OABP_READ_INFLIGHT_PER_CALLER: {
    key: "readInflightPerCaller",
    ...int(1, 10_000, 8),
    doc: "reads in flight at once per caller (agent, else client network) per instance (429)",
  },
  /** Of a caller's reads in flight, how many run at once; the others wait for its own to end. */
  OABP_READ_RUNNING_PER_CALLER: {
    key: "readRunningPerCaller",
    ...int(1, 10_000, 1),
    doc:
      "of a caller's reads in flight (`OABP_READ_INFLIGHT_PER_CALLER`), how many run at once per instance; " +
      "the others wait in order for one of its own to end (static assets and health probes are not counted)",
  },
  /** Open TCP connections per client network, counted at accept (src/http/connection-cap.ts). */
  OABP_CONNECTIONS_PER_NETWORK: {
    key: "connectionsPerNetwork",
    ...int(0, 1_000_000, 256),
    doc:
      "open TCP connections per client network (IPv4 address, IPv6 `CLIENT_V6_PREFIX` (64)); past it a " +
      "new connection is closed at accept, before any HTTP; generous for clients behind NAT; 0 = off; " +
      "not applied with `OABP_TRUST_PROXY` (the proxy caps connections)",
  },
  /** Session-creating routes per client IP: POST /auth/nonce and MCP initialize. */
  OABP_RATE_LIMIT_SESSION_IP: {
    ...rate(20, 60),
    doc: "`POST /auth/nonce` and MCP `initialize` per client IP",
  },
  /** MCP sessions still in their handshake (pending) per client IP. */
  OABP_MCP_PENDING_SESSIONS_PER_IP: {
    key: "mcpPendingPerIp",
    ...int(1, 10_000, 10),
    doc: "MCP sessions still in their handshake per client IP",
  },
} as const satisfies Record<string, Setting>;
