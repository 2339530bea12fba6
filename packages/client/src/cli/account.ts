import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { OabpError } from "../errors.js";
import type { Webhook } from "../types.js";
import { EXIT, need, notSignedIn, readInput, str, UsageError, type Ctx } from "./context.js";
import { emit, keyValues, table } from "./output.js";
import { formatAmount, parseAmount } from "../amounts.js";
import { assetTerms, relativeTime } from "./units.js";

// Identity, balances, receipts, webhooks, the operator's credit, and the MCP bridge.

/**
 * keygen [file]: a new key, 0600, never overwriting; --keystore-out encrypts it (password from
 * --password-file / OABP_KEYSTORE_PASSWORD). Without a file, the key goes to the config directory
 * (`keys/<profile>.key`, out of any checkout) and the profile remembers it, so `oabp login
 * --profile <name>` needs no flag.
 */
export async function keygen(ctx: Ctx): Promise<number> {
  const inConfig = ctx.args[0] === undefined;
  const file = ctx.args[0] ?? path.join(path.dirname(ctx.config.file), "keys", `${ctx.profile}.key`);
  if (existsSync(file))
    throw new UsageError(
      `${file} exists; keygen never overwrites a key${inConfig ? ` (another --profile, or \`oabp login --profile ${ctx.profile}\` to use it)` : ""}`,
    );
  if (inConfig) mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // viem and the keystore code load only here: other commands start without them (bench/README.md "CLI").
  const { generatePrivateKey, privateKeyToAccount } = await import("viem/accounts");
  const { encryptKeystore } = await import("../account.js");
  const key = generatePrivateKey();
  let text = `${key}\n`;
  if (ctx.flags["keystore-out"]) {
    const pwFile = str(ctx.flags, "password-file");
    const pw = pwFile ? readFileSync(pwFile, "utf8").replace(/\r?\n$/, "") : ctx.env.OABP_KEYSTORE_PASSWORD;
    if (!pw) throw new UsageError("--keystore-out needs a password: --password-file <file> or OABP_KEYSTORE_PASSWORD");
    text = `${JSON.stringify(await encryptKeystore(key, pw))}\n`;
  }
  writeFileSync(file, text, { mode: 0o600, flag: "wx" });
  if (inConfig) {
    ctx.config.profile(ctx.profile).key = { type: ctx.flags["keystore-out"] ? "keystore" : "key_file", path: file };
    ctx.config.save();
  }
  const address = privateKeyToAccount(key).address;
  emit(ctx.out, { address, file }, () => `${address}  (key in ${file})\n`);
  return EXIT.ok;
}

export async function login(ctx: Ctx): Promise<number> {
  if (!(await ctx.client.account()))
    throw new UsageError(
      `login needs a key: \`oabp keygen --profile ${ctx.profile}\` makes one in the config directory; or --key-file <file>, --keystore <file> (+ --password-file or OABP_KEYSTORE_PASSWORD), or OABP_PRIVATE_KEY`,
    );
  const session = await ctx.client.signIn(); // saved by the token store
  const p = ctx.config.profile(ctx.profile);
  p.server = ctx.server;
  const kf = str(ctx.flags, "key-file"),
    ks = str(ctx.flags, "keystore");
  if (kf) p.key = { type: "key_file", path: path.resolve(kf) };
  else if (ks) p.key = { type: "keystore", path: path.resolve(ks) };
  ctx.config.save();
  emit(
    ctx.out,
    { ...session, server: ctx.server, profile: ctx.profile, token: undefined },
    () => `signed in to ${ctx.server} as ${session.agent_id} (until ${session.expires_at})\n`,
  );
  return EXIT.ok;
}

export async function logout(ctx: Ctx): Promise<number> {
  const p = ctx.config.profile(ctx.profile);
  delete p.sessions?.[new URL(ctx.server).origin];
  ctx.config.save();
  emit(ctx.out, { server: ctx.server, signed_out: true }, () => `signed out of ${ctx.server}\n`);
  return EXIT.ok;
}

async function me(ctx: Ctx): Promise<string> {
  const id = ctx.args[0] ?? (await ctx.client.agentId());
  if (!id) throw notSignedIn();
  return id;
}

export async function balance(ctx: Ctx): Promise<number> {
  const b = await ctx.client.balance(await me(ctx));
  // Whole units with the symbol for people (each row says its decimals); --json keeps the wire.
  const rows = b.balances.map((x) => {
    const row: Record<string, unknown> = { ...x };
    for (const k of ["available", "escrowed", "staked"])
      if (typeof row[k] === "string")
        row[k] = formatAmount(row[k] as string, { symbol: x.asset, decimals: x.decimals });
    return row;
  });
  emit(ctx.out, b, () =>
    table(
      rows,
      ["asset", "available", "escrowed", "staked"].filter((k) => b.balances.some((x) => k in x)),
    ),
  );
  return EXIT.ok;
}

export async function agent(ctx: Ctx): Promise<number> {
  const a = await ctx.client.getAgent(await me(ctx));
  // For people: no aigen_balance (AIP-1 §8's integer in base units; `oabp balance` shows whole
  // units), times relative. --json keeps every field exact.
  const shown: Record<string, unknown> = { ...a };
  delete shown.aigen_balance;
  for (const k of Object.keys(shown))
    if (k.endsWith("_at") && typeof shown[k] === "string") shown[k] = relativeTime(shown[k] as string);
  emit(ctx.out, a, () =>
    keyValues(
      shown,
      Object.keys(shown).filter((k) => typeof shown[k] !== "object" || shown[k] === null),
    ),
  );
  return EXIT.ok;
}

/** receipt get <mission> <submission> | receipt verify <file | URL | - | mission submission> [--manifest <file|URL>] [--remote]. */
export async function receipt(ctx: Ctx): Promise<number> {
  const [sub, a, b] = ctx.args;
  const c = ctx.client;
  if (sub === "get") {
    const r = await c.getReceipt(need(a, "mission id"), need(b, "submission id"));
    const outFile = str(ctx.flags, "out");
    if (outFile) writeFileSync(outFile, `${JSON.stringify(r, null, 2)}\n`);
    emit(ctx.out, r, () =>
      keyValues(r as unknown as Record<string, unknown>, [
        "issuer",
        "mission_id",
        "submission_id",
        "agent_id",
        "issued_at",
        "settlement",
        "digest",
      ]),
    );
    return EXIT.ok;
  }
  if (sub !== "verify")
    throw new UsageError(
      "usage: oabp receipt get <mission> <submission> | oabp receipt verify <file|URL|-|mission submission>",
    );
  const target = need(a, "a receipt (file, URL, - for stdin, or mission and submission ids)");
  let receiptDoc: unknown;
  if (b) receiptDoc = await c.getReceipt(target, b);
  else if (isUrl(target)) receiptDoc = await getJson(target);
  else receiptDoc = JSON.parse((await readInput(ctx, target)).toString("utf8"));
  const m = str(ctx.flags, "manifest");
  const manifest = m ? (isUrl(m) ? await getJson(m) : JSON.parse(readFileSync(m, "utf8"))) : undefined;
  const result = ctx.flags.remote
    ? await c.verifyReceiptRemote(receiptDoc, manifest)
    : await c.verifyReceipt(receiptDoc, { manifest });
  // As oabp-verify-receipt: a receipt fetched from one origin that names another issuer is not that origin's.
  const issuer = (receiptDoc as { issuer?: unknown })?.issuer;
  if (
    !b &&
    isUrl(target) &&
    typeof issuer === "string" &&
    isUrl(issuer) &&
    new URL(target).origin !== new URL(issuer).origin
  ) {
    result.valid = false;
    result.reasons.push("issuer_origin_mismatch");
  }
  emit(ctx.out, result, () =>
    result.valid
      ? `valid${result.provisional ? " (provisional: settlement not final)" : ""}\n`
      : `INVALID: ${result.reasons.join(", ")}\n`,
  );
  return result.valid ? EXIT.ok : EXIT.failed;
}

const isUrl = (s: string) => /^https?:\/\//i.test(s);
async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, {
    headers: { accept: "application/json" },
    redirect: "error",
    signal: AbortSignal.timeout(30_000),
  });
  if (!res.ok) throw new OabpError(res.status, "BAD_RESPONSE", `GET ${url}: HTTP ${res.status}`);
  return res.json();
}

export async function webhooks(ctx: Ctx): Promise<number> {
  const [sub, a] = ctx.args;
  const c = ctx.client;
  switch (sub) {
    case "add": {
      const events = need(str(ctx.flags, "events"), "--events a,b")
        .split(",")
        .map((e) => e.trim())
        .filter(Boolean);
      const filters = str(ctx.flags, "filters");
      const w = await c.createWebhook({
        url: need(a, "url"),
        events: events as never,
        ...(filters && { filters: JSON.parse(filters) }),
      });
      emit(
        ctx.out,
        w,
        () =>
          keyValues(w as unknown as Record<string, unknown>, ["id", "url", "events", "secret"]) +
          "keep the secret: it is shown only now\n",
      );
      return EXIT.ok;
    }
    case "list": {
      const all: Webhook[] = [];
      for await (const w of c.webhooks()) if (all.push(w) >= 1000) break;
      emit(ctx.out, { webhooks: all }, () => table(all as never, ["id", "url", "events", "status", "created_at"]));
      return EXIT.ok;
    }
    case "rm":
      await c.deleteWebhook(need(a, "webhook id"));
      emit(ctx.out, { id: a, deleted: true }, () => `deleted ${a}\n`);
      return EXIT.ok;
    default:
      throw new UsageError("usage: oabp webhooks add <url> --events a,b [--filters JSON] | list | rm <id>");
  }
}

/** Operator commands (OABP_ADMIN_TOKEN / --admin-token): admin credit <agent> <amount> [--asset] [--base-units]. */
export async function admin(ctx: Ctx): Promise<number> {
  const [sub, agentId, text] = ctx.args;
  if (sub !== "credit" || !agentId || !text)
    throw new UsageError(
      "usage: oabp admin credit <agent address> <amount: 250 = 250 USDC> [--asset USDC] [--base-units]",
    );
  const amount = await creditBaseUnits(ctx, text);
  const r = await ctx.client.credit(agentId, amount, {
    asset: str(ctx.flags, "asset"),
    idempotencyKey: str(ctx.flags, "idempotency-key"),
  });
  emit(ctx.out, r, () => keyValues(r as unknown as Record<string, unknown>));
  return EXIT.ok;
}

/** `oabp withdraw 25`: the ledger balance to the signed-in agent's wallet; `oabp withdraw list`: its withdrawals. */
export async function withdraw(ctx: Ctx): Promise<number> {
  const [text] = ctx.args;
  if (!text)
    throw new UsageError(
      "usage: oabp withdraw <amount: 25 = 25 USDC> [--asset USDC] [--base-units] | oabp withdraw list",
    );
  if (text === "list") {
    const r = await ctx.client.withdrawals();
    emit(
      ctx.out,
      r,
      () =>
        r.withdrawals
          .map((w) => `${w.id}  ${w.amount} ${w.asset}  ${w.state}${w.tx_hash ? `  ${w.tx_hash}` : ""}`)
          .join("\n") + "\n",
    );
    return EXIT.ok;
  }
  const amount = await creditBaseUnits(ctx, text);
  const r = await ctx.client.withdraw(amount, {
    asset: str(ctx.flags, "asset"),
    idempotencyKey: str(ctx.flags, "idempotency-key"),
  });
  emit(ctx.out, r, () => keyValues(r as unknown as Record<string, unknown>));
  return EXIT.ok;
}

/** An amount as people write it (whole units of the asset), or exact with --base-units (a credit, a withdrawal). */
async function creditBaseUnits(ctx: Ctx, text: string): Promise<string> {
  if (ctx.flags["base-units"] === true) {
    if (!/^[1-9][0-9]*$/.test(text))
      throw new UsageError("with --base-units the amount is a positive integer in base units");
    return text;
  }
  const parsed = parseAmount(text, await assetTerms(ctx.client, str(ctx.flags, "asset") ?? "USDC"));
  if (!parsed.ok) throw new UsageError(`amount: ${parsed.message}`);
  return parsed.base.toString();
}

export async function mcp(ctx: Ctx): Promise<number> {
  const { McpBridge } = await import("../mcp/bridge.js");
  const bridge = new McpBridge({
    client: ctx.client,
    input: process.stdin,
    output: process.stdout,
    log: (l) => ctx.out.err(`oabp mcp: ${l}\n`),
  });
  const stop = () => void bridge.close().finally(() => process.exit(EXIT.ok));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await bridge.run();
  // stdin closed and the session ended: nothing else is owed (idle keep-alive sockets must not hold the process).
  process.exit(EXIT.ok);
}

export function readJsonFile(file: string): unknown {
  return JSON.parse(readFileSync(file, "utf8"));
}
