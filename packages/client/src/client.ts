import { randomUUID } from "node:crypto";
import createClient, { type Client } from "openapi-fetch";
import type { LocalAccount } from "viem";
import { errorFromBody, OabpError } from "./errors.js";
import type { paths } from "./generated/openapi.js";
import { verifyReceipt, type ReceiptVerification } from "./receipts.js";
import type * as T from "./types.js";

// The typed client: openapi-fetch over the generated `paths`, plus what every agent needs around
// it — SIWE sign-in from a viem account with token caching and renewal, an Idempotency-Key on
// every value-moving call, pagination iterators, errors carrying the server's codes.

export interface TokenStore {
  load(): T.Session | undefined | Promise<T.Session | undefined>;
  save(session: T.Session): void | Promise<void>;
}

export interface OabpClientOptions {
  /** Server origin, e.g. https://oabp.example (a trailing /api is fine too). */
  baseUrl: string;
  /**
   * Signs in with SIWE when a write needs a session (any viem LocalAccount), or a loader called
   * the first time a sign-in is needed (so a keystore is decrypted only then).
   */
  account?: LocalAccount | (() => Promise<LocalAccount>);
  /** A session to start with (e.g. cached by the CLI); renewed from `account` when it expires. */
  session?: T.Session;
  tokenStore?: TokenStore;
  /** Operator token for /admin/* and /treasury. */
  adminToken?: string;
  /** SIWE chain id; default: the first the server accepts (its nonce answer says), else 8453. */
  chainId?: number;
  /** Send an Idempotency-Key on value-moving calls that have none (default true). */
  idempotency?: boolean;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Clock for SIWE `issued-at` and session expiry (tests inject one; default: the system clock). */
  now?: () => Date;
}

// POSTs that move value or create state a retry must not duplicate (README "Idempotency-Key").
const VALUE_MOVING = [
  /^\/missions$/,
  /^\/missions\/[^/]+\/(submissions|submit|award|votes|commitments|claims|void|escrow)$/,
  /^\/admin\/ledger\/credit$/,
];
const RENEW_MARGIN_MS = 60_000;
const MAX_PAGES = 10_000;

export class OabpClient {
  readonly api: Client<paths>;
  readonly baseUrl: string;
  private session: T.Session | undefined;
  private loaded = false;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly opts: OabpClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "").replace(/\/api$/, "");
    this.session = opts.session;
    this.fetchImpl = opts.fetch ?? fetch;
    this.api = createClient<paths>({ baseUrl: this.baseUrl, fetch: (req) => this.send(req) });
  }

  private readonly now = (): Date => this.opts.now?.() ?? new Date();
  private loadedAccount: LocalAccount | undefined;
  /** The signing account, loading it if given as a loader. */
  async account(): Promise<LocalAccount | undefined> {
    const a = this.opts.account;
    if (typeof a === "function") return (this.loadedAccount ??= await a());
    return a;
  }

  /** Your agent id: the account's address, else the cached session's (no sign-in needed). */
  async agentId(): Promise<string | undefined> {
    const a = await this.account().catch(() => undefined);
    return a?.address.toLowerCase() ?? (await this.cachedSession())?.agent_id;
  }

  /** EIP-4361 sign-in: nonce → message bound to the server's domain → signature → bearer token. */
  async signIn(): Promise<T.Session> {
    const account = await this.account();
    if (!account?.signMessage)
      throw new OabpError(0, "NO_ACCOUNT", "sign-in needs an account (a private key, key file or keystore)");
    const n = await this.raw("POST", "/auth/nonce");
    const nonce = n as { nonce: string; domain?: string; uri?: string; chain_ids?: number[] };
    const origin = new URL(this.baseUrl);
    // Loaded only to sign in: reads never pay for viem.
    const { createSiweMessage } = await import("viem/siwe");
    const message = createSiweMessage({
      address: account.address,
      chainId: this.opts.chainId ?? nonce.chain_ids?.[0] ?? 8453,
      domain: nonce.domain ?? origin.host,
      nonce: nonce.nonce,
      uri: nonce.uri ?? origin.origin,
      version: "1",
      issuedAt: this.now(),
      statement: "Sign in to an OABP server.",
    });
    const signature = await account.signMessage({ message });
    const session = (await this.raw("POST", "/auth/siwe", { message, signature })) as T.Session;
    this.session = { token: session.token, agent_id: session.agent_id, expires_at: session.expires_at };
    await this.opts.tokenStore?.save(this.session);
    return this.session;
  }

  /** The current session if it is valid for at least a minute more (loading the cached one once). */
  private async cachedSession(): Promise<T.Session | undefined> {
    if (!this.loaded) {
      this.loaded = true;
      this.session ??= (await this.opts.tokenStore?.load()) ?? undefined;
    }
    const fresh = this.session && Date.parse(this.session.expires_at) - RENEW_MARGIN_MS > this.now().getTime();
    return fresh ? this.session : undefined;
  }

  /** A session valid for at least a minute more, signing in again when needed and possible. */
  async ensureSession(): Promise<T.Session | undefined> {
    const s = await this.cachedSession();
    if (s) return s;
    if (this.opts.account) return this.signIn();
    return undefined;
  }

  /** `Authorization` value for a request made outside this client (the MCP bridge), signing in if needed. */
  async authorization(): Promise<string | undefined> {
    const s = await this.ensureSession();
    return s ? `Bearer ${s.token}` : undefined;
  }

  /** Drops the session and signs in again (after a 401); false when there is no account to sign with. */
  async renew(): Promise<boolean> {
    if (!this.opts.account) return false;
    this.session = undefined;
    await this.signIn();
    return true;
  }

  // The transport under openapi-fetch: credentials, idempotency, timeout, one renewal on 401.
  private async send(req: Request, retried = false): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname.replace(/^\/api(?=\/)/, "");
    const headers = new Headers(req.headers);
    const admin = /^\/(admin\/|treasury$)/.test(path);
    const auth = path.startsWith("/auth/");
    if (admin && this.opts.adminToken) headers.set("authorization", `Bearer ${this.opts.adminToken}`);
    else if (!headers.has("authorization") && !auth) {
      // Reads use a session if there is a fresh one (visibility: a creator sees its pending
      // missions); only writes sign in for one. A read refused with 401 signs in below.
      const s = req.method === "GET" || req.method === "HEAD" ? await this.cachedSession() : await this.ensureSession();
      if (s) headers.set("authorization", `Bearer ${s.token}`);
    }
    if (
      this.opts.idempotency !== false &&
      req.method === "POST" &&
      !headers.has("idempotency-key") &&
      VALUE_MOVING.some((r) => r.test(path))
    ) {
      headers.set("idempotency-key", randomUUID());
    }
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer();
    let res: Response;
    try {
      res = await this.fetchImpl(req.url, {
        method: req.method,
        headers,
        body,
        redirect: "error",
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
      });
    } catch (e) {
      const timeout = (e as Error).name === "TimeoutError";
      throw new OabpError(
        0,
        timeout ? "TIMEOUT" : "NETWORK_ERROR",
        `${req.method} ${url.pathname}: ${timeout ? "timed out" : (e as Error).message}`,
      );
    }
    // An expired or revoked token: sign in again once and replay the same request (same key).
    if (res.status === 401 && !auth && !(admin && this.opts.adminToken) && !retried && this.opts.account) {
      this.session = undefined;
      await this.signIn();
      headers.delete("authorization");
      return this.send(new Request(req.url, { method: req.method, headers, body }), true);
    }
    return res;
  }

  /** Unwraps an openapi-fetch answer: the body, or an OabpError with the server's code. */
  async unwrap<D>(p: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
    const { data, error, response } = await p;
    if (!response.ok) throw errorFromBody(response.status, error);
    return data as D;
  }

  /** Any route by path, for what the typed helpers do not cover (also `client.api`). */
  async raw(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<unknown> {
    const init: RequestInit = { method, headers: { accept: "application/json", ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] = "application/json";
    }
    const res = await this.send(new Request(this.baseUrl + path, init));
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    if (!res.ok) throw errorFromBody(res.status, parsed);
    return parsed;
  }

  // ---- missions ----
  listMissions(query: NonNullable<paths["/missions"]["get"]["parameters"]["query"]> = {}): Promise<T.MissionList> {
    return this.unwrap(this.api.GET("/missions", { params: { query } }));
  }
  /** Every mission matching `query`, page after page (bounded). */
  async *missions(
    query: NonNullable<paths["/missions"]["get"]["parameters"]["query"]> = {},
  ): AsyncGenerator<T.Mission> {
    yield* pages((cursor) => this.listMissions({ ...query, ...(cursor && { cursor }) }), "missions");
  }
  getMission(id: string): Promise<T.Mission> {
    return this.unwrap(this.api.GET("/missions/{id}", { params: { path: { id } } }));
  }
  createMission(body: T.CreateMission, opts: { idempotencyKey?: string } = {}): Promise<T.Mission> {
    return this.unwrap(this.api.POST("/missions", { body, params: { header: key(opts) } }));
  }
  voidMission(id: string): Promise<T.Mission> {
    return this.unwrap(this.api.POST("/missions/{id}/void", { params: { path: { id } } })) as Promise<T.Mission>;
  }
  submit(id: string, body: T.CreateSubmission, opts: { idempotencyKey?: string } = {}): Promise<T.Submission> {
    return this.unwrap(
      this.api.POST("/missions/{id}/submissions", { body, params: { path: { id }, header: key(opts) } }),
    ) as Promise<T.Submission>;
  }
  async *submissions(id: string): AsyncGenerator<T.Submission> {
    yield* pages(
      (cursor) =>
        this.unwrap(
          this.api.GET("/missions/{id}/submissions", { params: { path: { id }, query: cursor ? { cursor } : {} } }),
        ),
      "submissions",
    );
  }
  getSubmission(id: string, sid: string): Promise<T.Submission> {
    return this.unwrap(this.api.GET("/missions/{id}/submissions/{sid}", { params: { path: { id, sid } } }));
  }
  award(id: string, body: T.Award): Promise<T.Mission> {
    return this.unwrap(this.api.POST("/missions/{id}/award", { body, params: { path: { id } } })) as Promise<T.Mission>;
  }
  vote(id: string, body: T.CastVote): Promise<T.Vote> {
    return this.unwrap(this.api.POST("/missions/{id}/votes", { body, params: { path: { id } } })) as Promise<T.Vote>;
  }
  commit(id: string, commitment: string): Promise<T.Commitment> {
    return this.unwrap(
      this.api.POST("/missions/{id}/commitments", { body: { commitment }, params: { path: { id } } }),
    ) as Promise<T.Commitment>;
  }
  claim(id: string): Promise<T.Claim> {
    return this.unwrap(this.api.POST("/missions/{id}/claims", { params: { path: { id } } })) as Promise<T.Claim>;
  }
  async releaseClaim(id: string): Promise<void> {
    await this.unwrap(this.api.DELETE("/missions/{id}/claims", { params: { path: { id } } }));
  }
  attachDeposit(id: string, txHash: string): Promise<T.AttachDepositResult> {
    return this.unwrap(
      this.api.POST("/missions/{id}/escrow", { body: { tx_hash: txHash }, params: { path: { id } } }),
    ) as Promise<T.AttachDepositResult>;
  }

  // ---- agents ----
  getAgent(id: string): Promise<T.Agent> {
    return this.unwrap(this.api.GET("/agents/{id}", { params: { path: { id } } }));
  }
  balance(id: string): Promise<T.AgentBalance> {
    return this.unwrap(this.api.GET("/agents/{id}/balance", { params: { path: { id } } }));
  }
  /** Operator: credit an agent's ledger balance (needs `adminToken`). */
  credit(
    agentId: string,
    amount: string,
    opts: { asset?: string; idempotencyKey?: string } = {},
  ): Promise<T.LedgerCreditResult> {
    return this.unwrap(
      this.api.POST("/admin/ledger/credit", {
        body: { agent_id: agentId, asset: opts.asset ?? "USDC", amount },
        params: { header: key(opts) },
      }),
    ) as Promise<T.LedgerCreditResult>;
  }

  // ---- withdrawals ----
  /** Withdraws `amount` base units of the ledger balance to the signed-in agent's wallet on Base. */
  withdraw(amount: string, opts: { asset?: string; idempotencyKey?: string } = {}): Promise<T.Withdrawal> {
    return this.unwrap(
      this.api.POST("/agents/me/withdrawals", {
        body: { asset: opts.asset ?? "USDC", amount },
        params: { header: key(opts) },
      }),
    ) as Promise<T.Withdrawal>;
  }
  withdrawals(): Promise<T.WithdrawalList> {
    return this.unwrap(this.api.GET("/agents/me/withdrawals"));
  }

  // ---- receipts ----
  manifest(): Promise<T.Manifest> {
    return this.unwrap(this.api.GET("/.well-known/oabp.json"));
  }
  getReceipt(missionId: string, submissionId: string): Promise<T.MissionReceipt> {
    return this.unwrap(
      this.api.GET("/missions/{id}/receipts/{submission_id}", {
        params: { path: { id: missionId, submission_id: submissionId } },
      }),
    );
  }
  /** The server's own verdict (POST /receipts/verify). */
  verifyReceiptRemote(receipt: unknown, manifest?: unknown): Promise<T.VerifyReceiptResult> {
    return this.raw(
      "POST",
      "/receipts/verify",
      manifest === undefined ? { receipt } : { receipt, manifest },
    ) as Promise<T.VerifyReceiptResult>;
  }
  /**
   * Offline §6.1 verification. The manifest is `opts.manifest`, else fetched from the receipt's
   * issuer origin (`<issuer>/.well-known/oabp.json`) — never from whoever handed the receipt over.
   */
  async verifyReceipt(
    receipt: unknown,
    opts: { manifest?: unknown } = {},
  ): Promise<ReceiptVerification & { issuer?: string }> {
    const issuer =
      typeof (receipt as { issuer?: unknown })?.issuer === "string"
        ? (receipt as { issuer: string }).issuer
        : undefined;
    let manifest = opts.manifest;
    if (manifest === undefined && issuer && /^https?:\/\//i.test(issuer)) {
      const res = await this.fetchImpl(new URL("/.well-known/oabp.json", issuer), {
        headers: { accept: "application/json" },
        redirect: "error",
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
      });
      if (!res.ok) throw new OabpError(res.status, "BAD_RESPONSE", `issuer manifest: HTTP ${res.status}`);
      manifest = await res.json();
    }
    return { ...(await verifyReceipt(receipt, manifest)), ...(issuer && { issuer }) };
  }

  // ---- webhooks ----
  createWebhook(body: T.CreateWebhook): Promise<T.WebhookCreated> {
    return this.unwrap(this.api.POST("/webhooks", { body })) as Promise<T.WebhookCreated>;
  }
  async *webhooks(): AsyncGenerator<T.Webhook> {
    yield* pages(
      (cursor) => this.unwrap(this.api.GET("/webhooks", { params: { query: cursor ? { cursor } : {} } })),
      "webhooks",
    );
  }
  async deleteWebhook(id: string): Promise<void> {
    await this.unwrap(this.api.DELETE("/webhooks/{id}", { params: { path: { id } } }));
  }
}

const key = (o: { idempotencyKey?: string }) => (o.idempotencyKey ? { "idempotency-key": o.idempotencyKey } : {});

/** Follows `next_cursor` until the last page (at most MAX_PAGES pages). */
export async function* pages<K extends string, I>(
  page: (cursor?: string) => Promise<{ next_cursor?: string | null } & { [k in K]: I[] }>,
  items: K,
): AsyncGenerator<I> {
  let cursor: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const p = await page(cursor);
    yield* p[items];
    if (!p.next_cursor) return;
    cursor = p.next_cursor;
  }
}
