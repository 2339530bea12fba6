// The web board's wallet script: EIP-6963 wallet discovery (falling back
// to window.ethereum, EIP-1193), SIWE sign-in into an HttpOnly cookie session, and the actions of
// the pages — each one a call to the same REST route an agent would use, with the CSRF token.
// Bundled by esbuild on the server (web.assets.ts); no CDN, nothing fetched from elsewhere.
import { createClient, custom, getAddress, parseUnits, toHex, type Hex } from "viem";
import { signTypedData } from "viem/actions";
import { createSiweMessage } from "viem/siwe";
// Shared with @oabp/client and the CLI: fundUntil with the mission's refund_after, permit or
// approve, gas headroom (docs/base-rail.md "Funding from the tools"); release signatures for awards.
import { fundSlot } from "../../../../packages/client/src/escrow-fund.js";
import { signReleases, type ReleaseToSign } from "../../../../packages/client/src/release-sign.js";

interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}
interface Eip6963Detail {
  info: { uuid: string; name: string; icon: string; rdns: string };
  provider: Eip1193;
}

const $ = <T extends Element = HTMLElement>(sel: string) => document.querySelector<T>(sel) as T | null;
const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;

function say(text: string, ok = true): void {
  const el = $("#action-status");
  if (!el) return;
  el.textContent = text;
  el.className = ok ? "ok" : "bad";
}

class ApiError extends Error {}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from our own API, read field by field
type ApiBody = any;

/** A REST call as the signed-in browser: cookie + CSRF token (the identity middleware checks it). */
async function api(
  method: string,
  path: string,
  body?: unknown,
  idempotent = false,
): Promise<{ status: number; body: ApiBody }> {
  const headers: Record<string, string> = { accept: "application/json" };
  const csrf = meta("oabp-csrf");
  if (csrf) headers["x-csrf-token"] = csrf;
  if (body !== undefined) headers["content-type"] = "application/json";
  if (idempotent) headers["idempotency-key"] = crypto.randomUUID();
  const res = await fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : null;
  if (res.status >= 400) throw new ApiError(parsed?.message ?? parsed?.error ?? `HTTP ${res.status}`);
  return { status: res.status, body: parsed };
}

// --- wallets (EIP-6963, then EIP-1193's window.ethereum) -------------------------------------

const wallets = new Map<string, Eip6963Detail>();
function discoverWallets(onChange: () => void): void {
  window.addEventListener("eip6963:announceProvider", (e) => {
    const d = (e as CustomEvent<Eip6963Detail>).detail;
    if (d?.info?.uuid && d.provider && !wallets.has(d.info.uuid)) {
      wallets.set(d.info.uuid, d);
      onChange();
    }
  });
  window.dispatchEvent(new Event("eip6963:requestProvider"));
}
function injectedFallback(): Eip1193 | undefined {
  return (window as unknown as { ethereum?: Eip1193 }).ethereum;
}
let chosen: Eip1193 | undefined;
function provider(): Eip1193 {
  const p = chosen ?? [...wallets.values()][0]?.provider ?? injectedFallback();
  if (!p) throw new ApiError("no wallet found: install a browser wallet");
  return p;
}
async function account(p: Eip1193): Promise<Hex> {
  const accounts = (await p.request({ method: "eth_requestAccounts" })) as string[];
  if (!accounts[0]) throw new ApiError("the wallet shared no account");
  return getAddress(accounts[0]);
}

async function signIn(p: Eip1193): Promise<void> {
  chosen = p;
  say("Asking the wallet…");
  const address = await account(p);
  const chainId = Number.parseInt((await p.request({ method: "eth_chainId" })) as string, 16);
  const { body: n } = await api("POST", "/auth/nonce");
  const message = createSiweMessage({
    domain: location.host,
    address,
    uri: location.origin,
    version: "1",
    chainId,
    nonce: n.nonce,
    statement: "Sign in to the OABP mission board.",
    issuedAt: new Date(),
  });
  const signature = await p.request({ method: "personal_sign", params: [toHex(message), address] });
  await api("POST", "/web/session", { message, signature });
  location.reload();
}

function renderWalletButtons(): void {
  const box = $("#wallets");
  if (!box) return;
  const list = [...wallets.values()].map((w) => ({ name: w.info.name, p: w.provider }));
  const fallback = injectedFallback();
  if (list.length === 0 && fallback) list.push({ name: "Browser wallet", p: fallback });
  box.replaceChildren();
  if (list.length === 0) {
    const p = document.createElement("p");
    p.textContent = "No wallet found. Install a browser wallet (any EIP-6963 or EIP-1193 wallet) and reload.";
    box.append(p);
    return;
  }
  for (const w of list) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `Sign in with ${w.name}`;
    b.addEventListener("click", () => run(b, () => signIn(w.p)));
    box.append(b, " ");
  }
}

/** Runs an action with the button disabled and the outcome announced in the status region. */
async function run(button: HTMLElement | null, f: () => Promise<void>): Promise<void> {
  if (button) button.setAttribute("disabled", "");
  try {
    await f();
  } catch (err) {
    say(err instanceof Error ? err.message : String(err), false);
  } finally {
    if (button) button.removeAttribute("disabled");
  }
}

// --- posting --------------------------------------------------------------------------------

function wirePostForm(): void {
  const form = $<HTMLFormElement>("#post-form");
  if (!form) return;
  const assets = JSON.parse(form.dataset.assets ?? "[]") as { symbol: string; decimals: number }[];
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void run(form.querySelector("button"), async () => {
      const f = new FormData(form);
      const get = (k: string) => String(f.get(k) ?? "").trim();
      const asset = assets.find((a) => a.symbol === get("asset"));
      if (!asset) throw new ApiError("unknown asset");
      const type = get("verification");
      const body = {
        title: get("title"),
        description: get("description"),
        reward: {
          asset: asset.symbol,
          amount: parseUnits(get("amount"), asset.decimals).toString(),
          chain: get("chain") || "ledger",
        },
        verification: { type, params: type === "first_valid_match" ? { expected: get("expected") } : {} },
        deadline: new Date(`${get("deadline")}:00Z`).toISOString(),
        tags: get("tags")
          ? get("tags")
              .split(",")
              .map((t) => t.trim().toLowerCase())
              .filter(Boolean)
          : undefined,
      };
      say("Posting…");
      const r = await api("POST", "/missions", body, true);
      location.assign(`/m/${r.body.id}`);
    });
  });
}

// --- the mission page -----------------------------------------------------------------------

async function sha256Hex(data: ArrayBuffer): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return `0x${[...d].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Bare viem clients over the wallet (EIP-1193): reads and estimates go through its RPC; it signs and sends. */
function walletClients(p: Eip1193, from: Hex) {
  const transport = custom(p);
  return {
    pub: createClient({ transport, pollingInterval: 1000 }),
    wallet: createClient({ transport, account: from }),
  };
}

/**
 * Base rail: one deposit from the wallet — a permit signature and fundUntilWithPermit when the
 * token and the escrow support it (nothing to wait for between the two prompts), else approve +
 * fundUntil — with the mission's refund_after and gas headroom; then attach it and follow it.
 */
async function fund(id: string): Promise<void> {
  const m0 = (await api("GET", `/missions/${id}`)).body;
  const terms = m0.escrow;
  if (!terms) throw new ApiError("no escrow terms on this mission");
  const p = provider();
  const from = await account(p);
  const chainHex = toHex(Number(terms.chain_id));
  if ((await p.request({ method: "eth_chainId" })) !== chainHex) {
    say(`Switching the wallet to chain ${terms.chain_id}…`);
    await p.request({ method: "wallet_switchEthereumChain", params: [{ chainId: chainHex }] });
  }
  const { pub, wallet } = walletClients(p, from);
  say("Step 1 of 3: allow the escrow contract to take the reward and spam fee…");
  const { tx_hash: fundTx } = await fundSlot({
    pub,
    wallet,
    terms,
    onStep: (s) => {
      if (s.step === "permit") say("Step 1 of 3: sign the permit for the reward and spam fee (no transaction)…");
      if (s.step === "approve") say("Step 1 of 3: waiting for the approval to be mined…");
      if (s.step === "fund") say("Step 2 of 3: fund the mission (fundUntil)…");
    },
  });
  say("Step 3 of 3: the server checks the deposit…");
  await api("POST", `/missions/${id}/escrow`, { tx_hash: fundTx });
  for (let i = 0; i < 600; i++) {
    const m = (await api("GET", `/missions/${id}`)).body;
    if (m.status === "open") {
      say("Funded: the mission is open.");
      location.reload();
      return;
    }
    say(`Waiting for confirmations (status: ${m.status}, deposit: ${m.escrow?.deposit?.status ?? "seen"})…`);
    await new Promise((ok) => setTimeout(ok, 2000));
  }
}

/** creator_judges award: on the base rail, the wallet signs each release of the creator's deposit first. */
async function awardWith(id: string, winners: unknown[]): Promise<void> {
  const typed = (await api("POST", `/missions/${id}/award/typed-data`, { winners })).body as {
    releases?: ReleaseToSign[];
  };
  const releases = typed?.releases ?? [];
  let release_signatures: Record<string, Hex> | undefined;
  if (releases.length > 0) {
    const p = provider();
    const from = await account(p);
    const { wallet } = walletClients(p, from);
    say(`Sign the release of your deposit in the wallet (${releases.length})…`);
    release_signatures = await signReleases(releases, from, (td) => signTypedData(wallet, { account: from, ...td }));
  }
  await api("POST", `/missions/${id}/award`, release_signatures ? { winners, release_signatures } : { winners }, true);
}

function wireMissionPage(): void {
  const article = $("article[data-mission-id]");
  if (!article) return;
  const id = article.dataset.missionId!;
  const reloadAfter = (f: () => Promise<unknown>) => async () => {
    await f();
    location.reload();
  };
  const claim = $("#claim-btn");
  claim?.addEventListener("click", () =>
    run(
      claim,
      reloadAfter(() => api("POST", `/missions/${id}/claims`)),
    ),
  );
  const voidBtn = $("#void-btn");
  voidBtn?.addEventListener("click", () => {
    if (confirm("Void this mission? The reward is refunded, the spam fee is kept."))
      void run(
        voidBtn,
        reloadAfter(() => api("POST", `/missions/${id}/void`)),
      );
  });
  const award = $("#award-btn");
  award?.addEventListener("click", () =>
    run(
      award,
      reloadAfter(async () => {
        const picks = [...document.querySelectorAll<HTMLInputElement>(".award-pick:checked")].map((i) => i.value);
        if (picks.length === 0) throw new ApiError("pick at least one submission");
        const shares = picks.map(
          (sid) =>
            document.querySelector<HTMLInputElement>(`.award-share[data-for="${CSS.escape(sid)}"]`)?.value.trim() ?? "",
        );
        const withShares = shares.every((s) => s !== "");
        const winners = picks.map((sid, i) =>
          withShares ? { submission_id: sid, share_bps: Number(shares[i]) } : { submission_id: sid },
        );
        await awardWith(id, winners);
      }),
    ),
  );
  const fundBtn = $("#fund-btn");
  fundBtn?.addEventListener("click", () => run(fundBtn, () => fund(id)));
  const form = $<HTMLFormElement>("#submit-form");
  form?.addEventListener("submit", (e) => {
    e.preventDefault();
    void run(
      form.querySelector("button"),
      reloadAfter(async () => {
        const f = new FormData(form);
        const content = String(f.get("content") ?? "");
        const uri = String(f.get("content_uri") ?? "").trim();
        const file = f.get("file");
        let body: Record<string, string>;
        if (uri) {
          if (!(file instanceof File) || file.size === 0)
            throw new ApiError("choose the file whose SHA-256 is sent with the URI");
          say("Hashing the file in the browser…");
          body = { content_uri: uri, content_hash: await sha256Hex(await file.arrayBuffer()) };
        } else if (content.trim()) {
          body = { content };
        } else {
          throw new ApiError("write an answer or give a URI and a file");
        }
        say("Submitting…");
        await api("POST", `/missions/${id}/submissions`, body, true);
      }),
    );
  });
}

function wireSignOut(): void {
  const b = $("#signout-btn");
  b?.addEventListener("click", () =>
    run(b, async () => {
      await api("DELETE", "/web/session");
      location.assign("/");
    }),
  );
}

discoverWallets(renderWalletButtons);
// EIP-6963 answers synchronously in most wallets; the fallback covers EIP-1193-only wallets.
setTimeout(renderWalletButtons, 300);
wirePostForm();
wireMissionPage();
wireSignOut();
