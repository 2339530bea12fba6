import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createInterface } from "node:readline";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  type Abi,
  type Address,
  type Chain,
  type Hex,
  type HttpTransport,
  type PrivateKeyAccount,
  type PublicClient,
  type TestClient,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

// A local chain per test file (docs/design.md "Fixed stack": anvil from @foundry-rs/anvil). Every
// startAnvil() is its own process on its own port, so files never share chain state.

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Anvil's first default dev account ("test test … junk" mnemonic, index 0). Public, test-only. */
export const ANVIL_KEY_0: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

const PLATFORM_PACKAGES: Record<string, string> = {
  "linux-x64": "@foundry-rs/anvil-linux-amd64",
  "linux-arm64": "@foundry-rs/anvil-linux-arm64",
  "darwin-x64": "@foundry-rs/anvil-darwin-amd64",
  "darwin-arm64": "@foundry-rs/anvil-darwin-arm64",
  "win32-x64": "@foundry-rs/anvil-win32-amd64",
};

/**
 * The native anvil binary. @foundry-rs/anvil's `bin.mjs` is only a node wrapper that spawns the
 * binary shipped in an optional per-platform package (`<pkg>/bin/anvil`); we spawn that binary
 * directly so stop() signals anvil itself rather than a wrapper that could leave it orphaned.
 */
export function anvilBinaryPath(): string {
  const pkg = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (!pkg) throw new Error(`@foundry-rs/anvil has no binary for ${process.platform}-${process.arch}`);
  const bin = process.platform === "win32" ? "anvil.exe" : "anvil";
  try {
    return createRequire(path.join(ROOT, "package.json")).resolve(`${pkg}/bin/${bin}`);
  } catch {
    throw new Error(
      `${pkg} (optional dependency of @foundry-rs/anvil) is not installed: run npm install without --omit=optional`,
    );
  }
}

export interface Anvil {
  rpcUrl: string;
  chainId: number;
  chain: Chain;
  account: PrivateKeyAccount;
  publicClient: PublicClient<HttpTransport, Chain>;
  walletClient: WalletClient<HttpTransport, Chain, PrivateKeyAccount>;
  testClient: TestClient<"anvil", HttpTransport, Chain>;
  /** Deploys contracts/artifacts/<artifactName>.json from account 0; resolves to the address. */
  deploy(artifactName: string, args?: readonly unknown[]): Promise<Address>;
  /** Kills the process (SIGTERM, then SIGKILL after 2 s) and resolves once it has exited. */
  stop(): Promise<void>;
}

async function rpcChainId(rpcUrl: string): Promise<number | null> {
  try {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    const body = (await res.json()) as { result?: string };
    return body.result ? Number.parseInt(body.result, 16) : null;
  } catch {
    return null;
  }
}

/** Starts anvil on 127.0.0.1 with an OS-assigned port; resolves once it answers eth_chainId. */
export async function startAnvil(opts: { chainId?: number; args?: string[] } = {}): Promise<Anvil> {
  const chainId = opts.chainId ?? 8453;
  // --port 0: the OS picks a free port and anvil prints it, so there is no probe-then-bind race.
  const child = spawn(
    anvilBinaryPath(),
    ["--host", "127.0.0.1", "--port", "0", "--chain-id", String(chainId), ...(opts.args ?? [])],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit); // a test that forgets stop() still leaves no orphan
  let tail = "";
  const keepTail = (d: Buffer) => (tail = (tail + d.toString()).slice(-4_000));
  child.stderr!.on("data", keepTail);

  const stop = async () => {
    process.off("exit", killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
      await exited;
      clearTimeout(timer);
    }
  };

  let rpcUrl: string;
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`anvil printed no port within 10 s: ${tail}`)), 10_000);
      void exited.then(() => reject(new Error(`anvil exited early (${child.exitCode}): ${tail}`)));
      // Anvil logs every request on stdout: keep draining it so the pipe never fills and blocks it.
      createInterface({ input: child.stdout! }).on("line", (line) => {
        keepTail(Buffer.from(`${line}\n`));
        const m = /^Listening on [^\s]+:(\d+)$/.exec(line.trim());
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
    });
    rpcUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 10_000;
    for (;;) {
      const id = await rpcChainId(rpcUrl);
      if (id === chainId) break;
      if (id !== null) throw new Error(`anvil answered chain id ${id}, expected ${chainId}`);
      if (Date.now() > deadline) throw new Error(`anvil did not answer eth_chainId within 10 s: ${tail}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  } catch (err) {
    await stop();
    throw err;
  }

  const chain = defineChain({
    id: chainId,
    name: `anvil-${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl, { retryCount: 0 });
  const account = privateKeyToAccount(ANVIL_KEY_0);
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 });
  const walletClient = createWalletClient({ chain, transport, account, pollingInterval: 50 });
  const testClient = createTestClient({ chain, transport, mode: "anvil", pollingInterval: 50 });

  return {
    rpcUrl,
    chainId,
    chain,
    account,
    publicClient,
    walletClient,
    testClient,
    stop,
    async deploy(artifactName, args = []) {
      const file = path.join(ROOT, "contracts", "artifacts", `${artifactName}.json`);
      const artifact = JSON.parse(readFileSync(file, "utf8")) as { abi: Abi; bytecode: Hex };
      const hash = await walletClient.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success" || !receipt.contractAddress)
        throw new Error(`deploying ${artifactName} failed: ${receipt.status}`);
      return receipt.contractAddress;
    },
  };
}
