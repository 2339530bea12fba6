// The web board's page script, loaded by every page and kept
// small: copy buttons (`data-copy`), the post, claim, submit, void and sign-out actions — each one
// a call to the same REST route an agent would use, with the CSRF token — and relative times kept
// current. Whatever signs with a wallet (viem) is in wallet.ts, a separate chunk imported only on
// /me and when a fund or award button is pressed. Bundled by esbuild on the server (web.assets.ts).
import type { ApiBody, Io } from "./io";

const $ = <T extends Element = HTMLElement>(sel: string) => document.querySelector<T>(sel) as T | null;
const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;

function say(text: string, ok = true): void {
  const el = $("#action-status");
  if (!el) return;
  el.textContent = text;
  el.className = ok ? "ok" : "bad";
}

/** A refusal: the API's message, status and body (`declare`d fields: esbuild emits no helper chunk). */
class ApiError extends Error {
  declare readonly status: number;
  declare readonly body: ApiBody;
  constructor(message: string, status = 0, body: ApiBody = null) {
    super(message);
    Object.assign(this, { status, body });
  }
}

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
  if (res.status >= 400)
    throw new ApiError(parsed?.message ?? parsed?.error ?? `HTTP ${res.status}`, res.status, parsed);
  return { status: res.status, body: parsed };
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

/** A click on the button `sel` runs `f` through `run`; with `ask`, only once the person confirms it. */
function onClick(sel: string, f: () => Promise<void>, ask?: string): void {
  const b = $(sel);
  b?.addEventListener("click", () => {
    if (ask === undefined || confirm(ask)) void run(b, f);
  });
}

// --- posting --------------------------------------------------------------------------------

interface PostAsset {
  symbol: string;
  decimals: number;
  fee: string;
}

/** Base units → "1,234.5" (the server's formatAmount, without the symbol). */
function wholeUnits(base: bigint, decimals: number): string {
  const s = base.toString().padStart(decimals + 1, "0");
  const whole = s.slice(0, s.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const frac = s.slice(s.length - decimals).replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : whole;
}

/** The cost before posting, for the amount and asset chosen: reward + posting fee, the fee kept. */
function showCost(form: HTMLFormElement, assets: PostAsset[]): void {
  const el = $("#post-cost");
  const get = (k: string) => String(new FormData(form).get(k) ?? "").trim();
  const a = assets.find((x) => x.symbol === get("asset")) ?? assets[0];
  if (!el || !a) return;
  const money = (v: bigint) => `${wholeUnits(v, a.decimals)} ${a.symbol}`;
  const fee = BigInt(a.fee);
  let reward: bigint | undefined;
  try {
    reward = BigInt(toBaseUnits(get("amount").replace(/[,_\s]/g, ""), a.decimals));
  } catch {
    reward = undefined;
  }
  const head = reward
    ? `Posting takes ${money(reward + fee)}: the ${money(reward)} reward and a ${money(fee)} posting fee, which keeps spam off the board. `
    : `Posting costs the reward plus a ${money(fee)} posting fee, which keeps spam off the board. `;
  const strong = document.createElement("strong");
  strong.textContent = "The posting fee is kept";
  el.replaceChildren(
    head,
    strong,
    ", even if you cancel the mission or nobody answers; the reward comes back to you then.",
  );
}

/** Clears what the last attempt said beside the fields and atop the form. */
function clearFieldErrors(form: HTMLFormElement): void {
  for (const box of form.querySelectorAll<HTMLElement>("[data-error-for], .form-error")) {
    box.textContent = "";
    box.hidden = true;
  }
  for (const input of form.querySelectorAll("[aria-invalid]")) {
    input.removeAttribute("aria-invalid");
    const rest = (input.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => !id.startsWith("err-"));
    if (rest.length) input.setAttribute("aria-describedby", rest.join(" "));
    else input.removeAttribute("aria-describedby");
  }
}

/**
 * A refusal shown in the form: each field's sentence beside it (`details.fields` from the post
 * form's server side, or the one `details.field` of a REST answer), the rest atop the form.
 */
function showFieldErrors(form: HTMLFormElement, err: ApiError): void {
  const d = err.body?.details ?? {};
  const fields = (d.fields ?? (typeof d.field === "string" ? { [d.field]: err.message } : {})) as Record<
    string,
    string
  >;
  let first: HTMLElement | null = null;
  for (const [name, text] of Object.entries(fields)) {
    const input = markField(form, name, text); // every field is marked; the first is focused
    first ??= input;
  }
  const top = form.querySelector<HTMLElement>(".form-error");
  if (top) {
    top.textContent = first
      ? "Some fields need a fix; each one says what, beside it."
      : err.status === 401
        ? "Sign in first (Sign in, at the top of the page); what you wrote stays here."
        : err.message;
    top.hidden = false;
  }
  (first ?? top)?.focus();
  (first ?? top)?.scrollIntoView({ block: "center" });
}

/** One field's sentence beside it, the input marked invalid and described by it; the input, or null. */
function markField(form: HTMLFormElement, name: string, text: string): HTMLElement | null {
  const box = form.querySelector<HTMLElement>(`[data-error-for="${CSS.escape(name)}"]`);
  const input = form.querySelector<HTMLElement>(`[name="${CSS.escape(name)}"]`);
  if (!box || !input) return null;
  box.textContent = text;
  box.hidden = false;
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", [input.getAttribute("aria-describedby"), box.id].filter(Boolean).join(" "));
  return input;
}

/** A refusal of one field, found before anything is sent. */
const fieldError = (field: string, message: string) => new ApiError(message, 0, { details: { field } });

/**
 * The form `sel` (with its error places, class "fielded"), when sent: `f` on its fields, and a
 * refusal shown beside the fields it is about instead of under the button.
 */
function onFieldedSubmit(sel: string, f: (fields: FormData, form: HTMLFormElement) => Promise<void>): void {
  const form = $<HTMLFormElement>(sel);
  form?.addEventListener("submit", (e) => {
    e.preventDefault();
    clearFieldErrors(form);
    void run(form.querySelector("button"), async () => {
      try {
        await f(new FormData(form), form);
      } catch (err) {
        say("");
        if (!(err instanceof ApiError)) throw err;
        showFieldErrors(form, err);
      }
    });
  });
}

function wirePostForm(): void {
  const form = $<HTMLFormElement>("#post-form");
  if (!form) return;
  const assets = JSON.parse(form.dataset.assets ?? "[]") as PostAsset[];
  form.addEventListener("input", () => showCost(form, assets));
  showCost(form, assets);
  onFieldedSubmit("#post-form", async (f) => {
    const fields: Record<string, string> = {};
    for (const [k, v] of f) if (typeof v === "string") fields[k] = v;
    // datetime-local is the person's own clock; the browser knows their time zone.
    const local = new Date(fields.deadline ?? "");
    if (!Number.isNaN(local.getTime())) fields.deadline = local.toISOString();
    say("Posting…");
    // The server reads the reward in whole units of the asset (docs/web.md "Posting").
    const r = await api("POST", "/web/post", fields, true);
    location.assign(`/m/${r.body.id}`);
  });
}

/** "12.5" in a token of `decimals` decimals → base units ("12500000"); what viem's parseUnits does for input. */
function toBaseUnits(text: string, decimals: number): string {
  const m = /^(\d{1,60})(?:\.(\d*))?$/.exec(text);
  if (!m) throw new ApiError("the amount must be a number like 12.5");
  const frac = (m[2] ?? "").replace(/0+$/, "");
  if (frac.length > decimals) throw new ApiError(`at most ${decimals} decimals`);
  return BigInt(m[1]! + frac.padEnd(decimals, "0")).toString();
}

const io: Io = { api, say, run };

/** The signing chunk (viem), fetched once, on first need. */
let walletChunk: Promise<typeof import("./wallet")> | undefined;
function signing(): Promise<typeof import("./wallet")> {
  walletChunk ??= import("./wallet");
  walletChunk.catch(() => (walletChunk = undefined));
  return walletChunk;
}

// --- copy buttons and relative times ---------------------------------------------------------

/** `<button data-copy="text">`: copies the text, says so in the button for a moment. */
function wireCopyButtons(): void {
  document.addEventListener("click", (e) => {
    const b = (e.target as Element | null)?.closest<HTMLElement>("[data-copy]");
    if (!b) return;
    const text = b.dataset.copy ?? "";
    const label = b.textContent;
    const done = (ok: boolean) => {
      b.textContent = ok ? "Copied" : "Copy failed";
      b.setAttribute("data-copied", ok ? "yes" : "no");
      setTimeout(() => {
        b.textContent = label;
        b.removeAttribute("data-copied");
      }, 1500);
    };
    navigator.clipboard.writeText(text).then(
      () => done(true),
      () => done(false),
    );
  });
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];
/** `<time datetime>` shown relative ("in 3 hours") stays current while the page is open. */
function refreshTimes(): void {
  const fmt = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const t of document.querySelectorAll<HTMLTimeElement>("time[data-relative]")) {
    const at = Date.parse(t.dateTime);
    if (Number.isNaN(at)) continue;
    const d = at - Date.now();
    const [unit, ms] = UNITS.find(([, ms]) => Math.abs(d) >= ms) ?? UNITS[UNITS.length - 1]!;
    t.textContent = fmt.format(Math.round(d / ms), unit);
  }
}

// --- the mission page -----------------------------------------------------------------------

async function sha256Hex(data: ArrayBuffer): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return `0x${[...d].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** `f`, then the page again (it shows what the action changed). */
const reloadAfter =
  <A extends unknown[]>(f: (...a: A) => Promise<unknown>) =>
  async (...a: A) => {
    await f(...a);
    location.reload();
  };

/** The ticked submissions, with their shares when every one has a share. */
function awardWinners(): { submission_id: string; share_bps?: number }[] {
  const picks = [...document.querySelectorAll<HTMLInputElement>(".award-pick:checked")].map((i) => i.value);
  if (picks.length === 0) throw new ApiError("pick at least one submission");
  const shares = picks.map(
    (sid) =>
      document.querySelector<HTMLInputElement>(`.award-share[data-for="${CSS.escape(sid)}"]`)?.value.trim() ?? "",
  );
  const withShares = shares.every((s) => s !== "");
  return picks.map((sid, i) =>
    // Shares are typed in percent; the API takes basis points (1 % = 100).
    withShares ? { submission_id: sid, share_bps: Math.round(Number(shares[i]) * 100) } : { submission_id: sid },
  );
}

/** The submission form's body: the text, or a link with the SHA-256 of the file the browser hashes. */
async function submissionBody(f: FormData): Promise<Record<string, string>> {
  const content = String(f.get("content") ?? "");
  const uri = String(f.get("content_uri") ?? "").trim();
  const file = f.get("file");
  if (uri) {
    if (!(file instanceof File) || file.size === 0)
      throw fieldError("file", "Choose the file the link points to: its fingerprint is sent with the link.");
    say("Hashing the file in the browser…");
    return { content_uri: uri, content_hash: await sha256Hex(await file.arrayBuffer()) };
  }
  if (content.trim()) return { content };
  throw fieldError("content", "Write an answer here, or give a link and choose its file below.");
}

/** The dispute stake in base units, from whole units typed; a refusal in words, with the balance. */
async function stake(missionId: string, f: FormData, form: HTMLFormElement): Promise<void> {
  const decimals = Number(form.dataset.decimals);
  const symbol = form.dataset.symbol ?? "";
  const text = String(f.get("amount") ?? "")
    .trim()
    .replace(/[,_\s]/g, "");
  let amount: string;
  try {
    amount = toBaseUnits(text, decimals);
  } catch {
    throw fieldError(
      "amount",
      `Enter your stake in ${symbol}, like 1 or 0.5 (at most ${decimals} digits after the point).`,
    );
  }
  try {
    await api("POST", `/missions/${missionId}/votes`, { submission_id: f.get("submission_id"), amount }, true);
  } catch (err) {
    const d = err instanceof ApiError ? err.body?.details : undefined;
    if (!(err instanceof ApiError) || err.body?.error !== "INSUFFICIENT_BALANCE" || !/^\d+$/.test(d?.available ?? ""))
      throw err;
    const money = (v: string) => `${wholeUnits(BigInt(v), decimals)} ${symbol}`;
    throw fieldError("amount", `Your balance is ${money(d.available)}; this stake needs ${money(amount)}.`);
  }
}

function wireMissionPage(): void {
  const article = $("article[data-mission-id]");
  if (!article) return;
  const id = article.dataset.missionId!;
  // Wallets announce themselves when asked (EIP-6963): ask early where a fund or award button is.
  if ($("#fund-btn, #award-btn")) void signing().then((w) => w.discover());
  onClick(
    "#claim-btn",
    reloadAfter(() => api("POST", `/missions/${id}/claims`)),
  );
  onClick(
    "#void-btn",
    reloadAfter(() => api("POST", `/missions/${id}/void`)),
    "Void this mission? The reward is refunded, the spam fee is kept.",
  );
  onClick(
    "#award-btn",
    reloadAfter(async () => {
      const winners = awardWinners();
      await (await signing()).awardWith(io, id, winners);
    }),
  );
  onFieldedSubmit(
    "#dispute-form",
    reloadAfter((f, form) => stake(id, f, form)),
  );
  onClick("#fund-btn", async () => (await signing()).fund(io, id));
  onFieldedSubmit(
    "#submit-form",
    reloadAfter(async (f) => {
      const body = await submissionBody(f);
      say("Submitting…");
      await api("POST", `/missions/${id}/submissions`, body, true);
    }),
  );
}

function wireSignOut(): void {
  onClick("#signout-btn", async () => {
    await api("DELETE", "/web/session");
    location.assign("/");
  });
}

if ($("#wallets")) void signing().then((w) => w.showWallets(io));
wireCopyButtons();
wirePostForm();
wireMissionPage();
wireSignOut();
if (document.querySelector("time[data-relative]")) setInterval(refreshTimes, 60_000);
