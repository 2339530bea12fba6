import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { serve, type ServerType } from "@hono/node-server";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { createPublicClient, createWalletClient, http, type Chain, type Hex, type PrivateKeyAccount } from "viem";
import { makeTestApp, type TestApp } from "./app";

// Real-browser tests of the web board: Debian's chromium driven by playwright-core,
// the app on a real port, and a test wallet injected into every page — an EIP-1193 provider that
// announces itself by EIP-6963 and forwards to Node, where a viem local account signs.

export const CHROMIUM = process.env.OABP_CHROMIUM ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/** Screenshots for review (gitignored). */
export const SHOT_DIR = path.resolve(import.meta.dirname, "../../test-results/web");

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does this)`);
  mkdirSync(SHOT_DIR, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

export interface WebServer {
  t: TestApp;
  url: string;
  close(): Promise<void>;
}

/** The app on 127.0.0.1:<random port>, its public URL that origin (SIWE's domain is its host). */
export async function startWebServer(env: Record<string, string> = {}): Promise<WebServer> {
  let handler: ((req: Request) => Response | Promise<Response>) | undefined;
  const server: ServerType = await new Promise((ok) => {
    const s = serve({ fetch: (req) => handler!(req), hostname: "127.0.0.1", port: 0 }, () => ok(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const t = await makeTestApp({ OABP_PUBLIC_URL: url, ...env });
  // The wallet signs SIWE messages with the browser's time: the server's clock starts there too.
  t.clock.set(new Date());
  handler = (req) => t.app.fetch(req);
  return {
    t,
    url,
    close: async () => {
      await new Promise<void>((ok) => server.close(() => ok()));
      await t.close();
    },
  };
}

export interface WalletOptions {
  account: PrivateKeyAccount;
  chain: Chain;
  /** JSON-RPC of the chain for transactions (anvil); without it, only signing works. */
  rpcUrl?: string;
}

/** The page side of the test wallet: EIP-1193 `request` forwarded to Node; EIP-6963 announce. */
const INJECTED = `(() => {
  const provider = {
    isOabpTestWallet: true,
    request: ({ method, params }) => window.__oabpWallet(method, params ?? []).then((r) => { if (r && r.error) throw Object.assign(new Error(r.error), { code: 4001 }); return r.result; }),
    on() {}, removeListener() {},
  };
  const info = { uuid: "6c1a7f0e-0000-4000-8000-000000000001", name: "Test Wallet", icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E", rdns: "test.oabp.wallet" };
  const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
  window.addEventListener("eip6963:requestProvider", announce);
  announce();
})();`;

const READS = new Set([
  "eth_call",
  "eth_estimateGas",
  "eth_getBlockByNumber",
  "eth_blockNumber",
  "eth_getTransactionReceipt",
  "eth_getTransactionByHash",
  "eth_getTransactionCount",
  "eth_gasPrice",
  "eth_maxPriorityFeePerGas",
  "eth_feeHistory",
]);

/** EIP-712 message fields of (u)int types as bigint (wallets take JSON numbers or strings). */
function typedNumbers(types: Record<string, { name: string; type: string }[]>, type: string, value: unknown): any {
  if (type.endsWith("[]")) return (value as unknown[]).map((v) => typedNumbers(types, type.slice(0, -2), v));
  if (/^u?int\d*$/.test(type)) return BigInt(value as string);
  const fields = types[type];
  if (!fields) return value;
  const obj = value as Record<string, unknown>;
  return Object.fromEntries(fields.map((f) => [f.name, typedNumbers(types, f.type, obj[f.name])]));
}

/** Transactions the test wallets sent (to, data, the gas the page asked for), in order. */
export const sent: { to: Hex; data: Hex; gas: bigint | undefined }[] = [];

/** A browser context whose pages have the wallet of `o.account`. */
export async function walletContext(browser: Browser, o: WalletOptions): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const pc = o.rpcUrl ? createPublicClient({ chain: o.chain, transport: http(o.rpcUrl) }) : undefined;
  const wc = o.rpcUrl
    ? createWalletClient({ chain: o.chain, transport: http(o.rpcUrl), account: o.account })
    : undefined;
  await context.exposeFunction("__oabpWallet", async (method: string, params: unknown[]) => {
    try {
      switch (method) {
        case "eth_requestAccounts":
        case "eth_accounts":
          return { result: [o.account.address] };
        case "eth_chainId":
          return { result: `0x${o.chain.id.toString(16)}` };
        case "wallet_switchEthereumChain":
          return { result: null };
        case "personal_sign":
          return { result: await o.account.signMessage({ message: { raw: params[0] as Hex } }) };
        case "eth_signTypedData_v4": {
          // As a wallet does: the JSON typed data, numbers as strings or numbers.
          if (String(params[0]).toLowerCase() !== o.account.address.toLowerCase()) return { error: "wrong account" };
          const td = JSON.parse(params[1] as string);
          const { EIP712Domain: _d, ...types } = td.types;
          return {
            result: await o.account.signTypedData({
              domain: td.domain,
              types,
              primaryType: td.primaryType,
              message: typedNumbers(types, td.primaryType, td.message),
            }),
          };
        }
        case "eth_sendTransaction": {
          if (!wc) return { error: "no chain" };
          const tx = params[0] as { to: Hex; data: Hex; gas?: Hex };
          sent.push({ to: tx.to, data: tx.data, gas: tx.gas === undefined ? undefined : BigInt(tx.gas) });
          return {
            result: await wc.sendTransaction({
              to: tx.to,
              data: tx.data,
              gas: tx.gas === undefined ? undefined : BigInt(tx.gas),
              account: o.account,
              chain: o.chain,
            }),
          };
        }
        default:
          // Reads (eth_call, eth_estimateGas, blocks, receipts) go to the wallet's RPC, as a wallet's do.
          if (pc && READS.has(method)) return { result: await pc.request({ method, params } as never) };
          return { error: `unsupported method ${method}` };
      }
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  });
  await context.addInitScript(INJECTED);
  return context;
}

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** axe-core run inside the page (evaluated, so the page's CSP does not apply to the tool itself). */
export async function axeViolations(
  page: Page,
  impacts: string[] = ["serious", "critical"],
): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  await page.evaluate(AXE);
  const out = (await page.evaluate(`axe.run(document, { resultTypes: ["violations"] }).then((r) =>
    r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) })))`)) as {
    id: string;
    impact: string;
    nodes: string[];
  }[];
  return out.filter((v) => impacts.includes(v.impact));
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOT_DIR, `${name}.png`), fullPage: true });
}
