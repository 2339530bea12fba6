// Runs a third-party OABP conformance suite (pytest) against a fresh server of this repository on
// the embedded database (docs/testing.md "Third-party conformance suites"):
//   npx tsx scripts/aigen-conformance.ts <suite dir> [extra pytest arguments]
// <suite dir> holds tests/test_oabp_conformance.py and the SDK package it imports; nothing of the
// suite lives in this repository. The script starts `src/main.ts` on a free port with its own data
// directory, seeds it through the public REST API (SIWE sign-in, operator credit, missions, a
// submission and an award), runs pytest with BASE_URL and OABP_TEST_AGENT_ID, prints the summary
// and exits with pytest's status.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";

const [suiteDir, ...pytestArgs] = process.argv.slice(2);
if (!suiteDir) {
  console.error("usage: npx tsx scripts/aigen-conformance.ts <suite dir> [pytest arguments]");
  process.exit(2);
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const admin = randomBytes(24).toString("hex");
const dataDir = mkdtempSync(path.join(tmpdir(), "oabp-conformance-"));
const server = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
  cwd: path.resolve(import.meta.dirname, ".."),
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    OABP_DATA_DIR: dataDir,
    OABP_PUBLIC_URL: base,
    OABP_ADMIN_TOKEN: admin,
    LOG_LEVEL: "warn",
  },
  stdio: ["ignore", "inherit", "inherit"],
});
const cleanup = [dataDir];
const stop = () => {
  server.kill("SIGTERM");
  for (const p of cleanup) rmSync(p, { recursive: true, force: true });
};

async function call(method: string, p: string, body?: unknown, token?: string) {
  const r = await fetch(base + p, {
    method,
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function signIn(account: PrivateKeyAccount): Promise<string> {
  const n = (await call("POST", "/auth/nonce")) as { nonce: string; domain: string; uri: string; chain_ids: number[] };
  const message = createSiweMessage({
    address: account.address,
    chainId: n.chain_ids[0]!,
    domain: n.domain,
    nonce: n.nonce,
    uri: n.uri,
    version: "1",
    issuedAt: new Date(),
  });
  const r = await call("POST", "/auth/siwe", { message, signature: await account.signMessage({ message }) });
  return r.token as string;
}

const mission = (over: Record<string, unknown>) => ({
  title: "Conformance seed mission",
  description: "Seeded by scripts/aigen-conformance.ts.",
  reward: { asset: "USDC", amount: "10000000" },
  verification: { type: "creator_judges", params: { appeal: false } },
  deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  tags: ["conformance"],
  ...over,
});

const codeReview = {
  mission_type: "code_review",
  type_params: {
    target_url: "https://example.com/repo",
    language: "typescript",
    review_scope: ["bugs"],
    output_format: "markdown",
  },
};

let status = 1;
try {
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    const up = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 600) throw new Error("the server did not answer /health within a minute");
    await new Promise((r) => setTimeout(r, 100));
  }
  const creatorKey = privateKeyToAccount(generatePrivateKey());
  const solverKey = privateKeyToAccount(generatePrivateKey());
  const creator = await signIn(creatorKey);
  const solver = await signIn(solverKey);
  await call(
    "POST",
    "/admin/ledger/credit",
    { agent_id: creatorKey.address.toLowerCase(), asset: "USDC", amount: "1000000000" },
    admin,
  );
  // The agent under test wins one AIP-2 code_review mission (AIP-3 §5.2 affinity, types_active).
  const won = await call("POST", "/missions", mission({ title: "Review the parser", ...codeReview }), creator);
  const sub = await call("POST", `/missions/${won.id as string}/submissions`, { content: "No findings." }, solver);
  await call("POST", `/missions/${won.id as string}/award`, { winners: [{ submission_id: sub.id }] }, creator);
  // Missions left open for the listing tests: one typed, one freeform.
  await call("POST", "/missions", mission({ title: "Review the lexer", ...codeReview }), creator);
  await call("POST", "/missions", mission({ title: "Summarise AIP-1 §6" }), creator);

  // The suite's AIP-1 §7.4 tests read agent-card.json three directories above its test file (the
  // root of its own repository checkout); give them the card this server serves when that is not /.
  const cardDir = path.resolve(suiteDir, "..", "..");
  const cardPath = path.join(cardDir, "agent-card.json");
  if (cardDir !== path.parse(cardDir).root && existsSync(cardDir) && !existsSync(cardPath)) {
    writeFileSync(cardPath, await (await fetch(`${base}/.well-known/agent-card.json`)).text());
    cleanup.push(cardPath);
  } else if (!existsSync(cardPath)) console.log(`no ${cardPath}: the suite's agent-card tests will error`);
  const agent = solverKey.address.toLowerCase();
  console.log(`server ${base}, agent under test ${agent}`);
  const pytest = spawn(
    "python3",
    ["-m", "pytest", path.join(suiteDir, "tests", "test_oabp_conformance.py"), "-v", "-rs", ...pytestArgs],
    { env: { ...process.env, BASE_URL: base, OABP_TEST_AGENT_ID: agent }, stdio: "inherit" },
  );
  status = await new Promise<number>((resolve) => pytest.on("exit", (code) => resolve(code ?? 1)));
} catch (e) {
  console.error(e);
} finally {
  stop();
}
process.exit(status);
