import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encryptKeystore } from "../../packages/client/src/account";
import { runCli, startLocalServer, stopServer } from "../helpers/cli";
import { E2E_ADMIN, freshPostgresDatabase, type ServerProcess } from "../helpers/process";

// docs/first-mission.md, step by step, through the `oabp` command line against the real server
// process (embedded database, or the Postgres of DATABASE_URL): the operator credits a test
// balance, the creator posts, the solver claims and submits, the creator awards, the solver
// watches the mission settle and verifies the receipt offline.

let proc: ServerProcess;
let dropDb: (() => Promise<void>) | undefined;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "oabp-cli-"));
  // The README's walkthrough runs on `npm start` defaults, so appeals stay on (the production default
  // the helpers turn off) and the mission opts out with `--params '{"appeal": false}'` as the README does.
  const serverEnv: Record<string, string> = {
    OABP_DATA_DIR: path.join(dir, "data"),
    OABP_JOB_INTERVAL_MS: "200",
    OABP_APPEAL_DEFAULT: "on",
  };
  if (process.env.DATABASE_URL) {
    const fresh = await freshPostgresDatabase("oabp_cli");
    serverEnv.DATABASE_URL = fresh.url;
    dropDb = fresh.drop;
  } else serverEnv.DATABASE_URL = "";
  proc = await startLocalServer(serverEnv);
  // OABP_URL instead of --server on every line; the config directory is this test's own.
  env = { OABP_URL: proc.base, OABP_CONFIG_DIR: path.join(dir, "config") };
}, 180_000);
afterAll(async () => {
  await stopServer(proc);
  await dropDb?.();
});

const cli = (args: string[], o: { env?: Record<string, string>; input?: string } = {}) =>
  runCli(args, { ...o, env: { ...env, ...o.env } });

describe("first paid mission in five minutes, through the CLI", () => {
  it("credit → post → claim → submit → award → watch → receipt verified", { timeout: 300_000 }, async () => {
    // Two agents: the creator's key made by `oabp keygen --profile creator` in the config directory
    // (as the README does), the solver's in an encrypted keystore.
    const keygen = await cli(["keygen", "--profile", "creator", "--json"]);
    expect(keygen.code, keygen.stderr).toBe(0);
    const creator = (keygen.json.address as string).toLowerCase();
    const creatorKey = readFileSync(keygen.json.file, "utf8").trim();
    const solverKey = generatePrivateKey();
    const solver = privateKeyToAccount(solverKey).address.toLowerCase();
    writeFileSync(
      path.join(dir, "solver.json"),
      JSON.stringify(await encryptKeystore(solverKey, "correct horse", { n: 1024 })),
    );
    writeFileSync(path.join(dir, "solver.pw"), "correct horse\n");

    const loginC = await cli(["login", "--profile", "creator", "--json"]);
    expect(loginC.code, loginC.stderr).toBe(0);
    expect(loginC.json).toMatchObject({ agent_id: creator, server: proc.base });
    expect(loginC.json.token).toBeUndefined(); // never printed
    const loginS = await cli([
      "login",
      "--profile",
      "solver",
      "--keystore",
      path.join(dir, "solver.json"),
      "--password-file",
      path.join(dir, "solver.pw"),
      "--json",
    ]);
    expect(loginS.code, loginS.stderr).toBe(0);
    expect(loginS.json.agent_id).toBe(solver);
    const config = readFileSync(path.join(dir, "config", "config.json"), "utf8");
    expect(config).not.toContain(creatorKey.slice(2)); // keys are remembered by path only
    expect(config).not.toContain(solverKey.slice(2));

    // 1. The operator credits the creator 250 USDC.
    const credit = await cli(["admin", "credit", creator, "250", "--json"], {
      env: { OABP_ADMIN_TOKEN: E2E_ADMIN },
    });
    expect(credit.code, credit.stderr).toBe(0);
    expect(credit.json).toMatchObject({ balance: "250000000" });

    // 2. The creator posts a 100 USDC mission.
    const created = await cli([
      "missions",
      "create",
      "--profile",
      "creator",
      "--title",
      "Summarise AIP-1 §6.1",
      "--description",
      "One paragraph on portable receipts.",
      "--reward",
      "100",
      "--deadline",
      "+3d",
      "--tags",
      "writing,docs",
      "--params",
      '{"appeal": false}',
      "--json",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const id = created.json.id as string;
    expect(created.json).toMatchObject({ status: "open", creator, reward: { asset: "USDC", amount: "100000000" } });
    // `--reward 100` is 100 USDC (whole units); before posting the CLI says the spam fee is kept.
    expect(created.stderr).toContain(
      "posting 100 USDC reward + 5 USDC spam fee from your balance; the spam fee is kept",
    );
    const shown = await cli(["missions", "get", id]);
    expect(shown.stdout).toMatch(/^reward +100 USDC$/m);
    expect(shown.stdout).toMatch(/^deadline +in 3 days$/m);
    const balance = await cli(["balance", "--profile", "creator"]);
    expect(balance.stdout).toMatch(/USDC +145 USDC/); // 250 − 100 − 5, in whole units
    const agentShown = await cli(["agent", "--profile", "creator"]);
    expect(agentShown.stdout).not.toContain("aigen_balance");
    const version = await cli(["--version"]);
    expect(version.stdout).toBe(`oabp ${JSON.parse(readFileSync("packages/client/package.json", "utf8")).version}\n`);
    // A dust reward in base units is refused before any fee, naming both readings.
    const dust = await cli([
      "missions",
      "create",
      "--profile",
      "creator",
      "--title",
      "t",
      "--description",
      "d",
      "--reward-base-units",
      "25",
    ]);
    expect(dust.code).toBe(6);
    expect(dust.stderr).toContain("0.000025 USDC");
    expect(dust.stderr).toContain('reward.amount "25000000"');
    // A creator_judges option rides in --params: here two days to judge instead of the server's seven.
    const windowed = await cli([
      "missions",
      "create",
      "--profile",
      "creator",
      "--title",
      "Judged within two days",
      "--description",
      "Pick the best tagline.",
      "--reward",
      "1",
      "--params",
      '{"appeal": false, "judging_window_seconds": 172800}',
    ]);
    expect(windowed.code, windowed.stderr).toBe(0);
    expect(windowed.stdout).toMatch(/^verification +.*"judging_window_seconds":172800/m);
    expect(windowed.stdout).toMatch(/^judging_deadline +/m);

    // 3. The solver finds it, claims it and submits (stdin).
    const list = await cli(["missions", "list", "--tag", "writing", "--q", "receipts", "--json"]);
    expect(list.json.missions.map((m: { id: string }) => m.id)).toContain(id);
    const claimed = await cli(["claim", id, "--profile", "solver", "--json"]);
    expect(claimed.code, claimed.stderr).toBe(0);
    const sub = await cli(["submit", id, "-", "--profile", "solver", "--json"], {
      input: "Receipts are JCS + ed25519 signed documents.",
    });
    expect(sub.code, sub.stderr).toBe(0);
    expect(sub.json).toMatchObject({ mission_id: id, submitter: solver, status: "pending" });

    // Meaningful exit codes: a non-creator cannot award (3), an unknown mission is 4, bad usage 2.
    expect((await cli(["award", id, sub.json.id, "--profile", "solver", "--json"])).code).toBe(3);
    const missing = await cli(["missions", "get", "mis_doesnotexist", "--json"]);
    expect(missing.code).toBe(4);
    expect(missing.json.error).toBe("NOT_FOUND");
    expect((await cli(["missions", "create", "--reward", "ten"])).code).toBe(2);

    // 4. The creator awards; the solver watches it settle (exit 0 = resolved).
    const awarded = await cli(["award", id, sub.json.id, "--profile", "creator", "--json"]);
    expect(awarded.code, awarded.stderr).toBe(0);
    expect(awarded.json.status).toBe("resolved");
    const watched = await cli(["watch", id, "--interval", "0.2", "--max-polls", "50", "--json"]);
    expect(watched.code, watched.stderr).toBe(0);
    expect(JSON.parse(watched.stdout.trim().split("\n").at(-1)!)).toMatchObject({
      status: "resolved",
      payout_status: "confirmed",
    });

    // 5. The solver is paid and verifies the receipt offline against the issuer's manifest.
    const bal = await cli(["balance", "--profile", "solver", "--json"]);
    expect(bal.code, bal.stderr).toBe(0);
    expect(BigInt(bal.json.aigen_balance)).toBe(100_000_000n - (100_000_000n * 50n) / 10_000n);
    const receiptFile = path.join(dir, "receipt.json");
    const got = await cli(["receipt", "get", id, sub.json.id, "--out", receiptFile, "--json"]);
    expect(got.code, got.stderr).toBe(0);
    expect(got.json).toMatchObject({ issuer: proc.base, mission_id: id, submission_id: sub.json.id, agent_id: solver });
    const verified = await cli(["receipt", "verify", receiptFile, "--json"]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.json).toMatchObject({ valid: true, reasons: [], issuer: proc.base });
    const byIds = await cli(["receipt", "verify", id, sub.json.id]);
    expect(byIds.code).toBe(0);
    expect(byIds.stdout).toContain("valid");
  });
});
