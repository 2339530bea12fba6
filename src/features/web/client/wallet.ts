// The signing half of the web board's script (docs/web.md "Scripts"): EIP-6963 wallet discovery
// (falling back to window.ethereum, EIP-1193), SIWE sign-in into an HttpOnly cookie session,
// funding on the base rail and award release signatures. It carries viem, so it is a separate
// chunk that app.ts imports only on a page or action that signs (/me, the fund and award buttons).
import { createClient, custom, getAddress, toHex, type Hex } from "viem";
import { signTypedData } from "viem/actions";
import { createSiweMessage } from "viem/siwe";
// Shared with @oabp/client and the CLI: fundUntil with the mission's refund_after, permit or
// approve, gas headroom (docs/base-rail.md "Funding from the tools"); release signatures for awards.
import { fundSlot } from "../../../../packages/client/src/escrow-fund.js";
import { signReleases, type ReleaseToSign } from "../../../../packages/client/src/release-sign.js";
import type { Io } from "./io";

interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}
interface Eip6963Detail {
  info: { uuid: string; name: string; icon: string; rdns: string };
  provider: Eip1193;
}

class WalletError extends Error {}

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
  if (!p) throw new WalletError("no wallet found: install a browser wallet");
  return p;
}
async function account(p: Eip1193): Promise<Hex> {
  const accounts = (await p.request({ method: "eth_requestAccounts" })) as string[];
  if (!accounts[0]) throw new WalletError("the wallet shared no account");
  return getAddress(accounts[0]);
}

async function signIn(io: Io, p: Eip1193): Promise<void> {
  chosen = p;
  io.say("Asking the wallet…");
  const address = await account(p);
  const chainId = Number.parseInt((await p.request({ method: "eth_chainId" })) as string, 16);
  const { body: n } = await io.api("POST", "/auth/nonce");
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
  await io.api("POST", "/web/session", { message, signature });
  location.reload();
}

function renderWalletButtons(io: Io): void {
  const box = document.querySelector<HTMLElement>("#wallets");
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
    b.addEventListener("click", () => io.run(b, () => signIn(io, w.p)));
    box.append(b, " ");
  }
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
export async function fund(io: Io, id: string): Promise<void> {
  const m0 = (await io.api("GET", `/missions/${id}`)).body;
  const terms = m0.escrow;
  if (!terms) throw new WalletError("no escrow terms on this mission");
  const p = provider();
  const from = await account(p);
  const chainHex = toHex(Number(terms.chain_id));
  if ((await p.request({ method: "eth_chainId" })) !== chainHex) {
    io.say(`Switching the wallet to chain ${terms.chain_id}…`);
    await p.request({ method: "wallet_switchEthereumChain", params: [{ chainId: chainHex }] });
  }
  const { pub, wallet } = walletClients(p, from);
  io.say("Step 1 of 3: allow the escrow contract to take the reward and spam fee…");
  const { tx_hash: fundTx } = await fundSlot({
    pub,
    wallet,
    terms,
    onStep: (s) => {
      if (s.step === "permit") io.say("Step 1 of 3: sign the permit for the reward and spam fee (no transaction)…");
      if (s.step === "approve") io.say("Step 1 of 3: waiting for the approval to be mined…");
      if (s.step === "fund") io.say("Step 2 of 3: fund the mission (fundUntil)…");
    },
  });
  io.say("Step 3 of 3: the server checks the deposit…");
  await io.api("POST", `/missions/${id}/escrow`, { tx_hash: fundTx });
  for (let i = 0; i < 600; i++) {
    const m = (await io.api("GET", `/missions/${id}`)).body;
    if (m.status === "open") {
      io.say("Funded: the mission is open.");
      location.reload();
      return;
    }
    io.say(`Waiting for confirmations (status: ${m.status}, deposit: ${m.escrow?.deposit?.status ?? "seen"})…`);
    await new Promise((ok) => setTimeout(ok, 2000));
  }
}

/** creator_judges award: on the base rail, the wallet signs each release of the creator's deposit first. */
export async function awardWith(io: Io, id: string, winners: unknown[]): Promise<void> {
  const typed = (await io.api("POST", `/missions/${id}/award/typed-data`, { winners })).body as {
    releases?: ReleaseToSign[];
  };
  const releases = typed?.releases ?? [];
  let release_signatures: Record<string, Hex> | undefined;
  if (releases.length > 0) {
    const p = provider();
    const from = await account(p);
    const { wallet } = walletClients(p, from);
    io.say(`Sign the release of your deposit in the wallet (${releases.length})…`);
    release_signatures = await signReleases(releases, from, (td) => signTypedData(wallet, { account: from, ...td }));
  }
  await io.api(
    "POST",
    `/missions/${id}/award`,
    release_signatures ? { winners, release_signatures } : { winners },
    true,
  );
}

/** /me: discovers wallets and offers a sign-in button per wallet. */
export function showWallets(io: Io): void {
  discoverWallets(() => renderWalletButtons(io));
  // EIP-6963 answers synchronously in most wallets; the fallback covers EIP-1193-only wallets.
  setTimeout(() => renderWalletButtons(io), 300);
}

/** Mission pages: wallets announce themselves when asked (EIP-6963) before fund or award needs one. */
export function discover(): void {
  discoverWallets(() => undefined);
}
