import { z } from "zod";
import { guardianPass, ServerUnreadable, type GuardianAlarm, type GuardianConfig } from "./guardian/watch";

// `npm run guardian` (docs/runbooks.md "Guardian watch"): the guardian's own alarm, next to its
// Safe, with its own small configuration and no database. Exit status (GUARDIAN_ONCE=1): 0 all
// proposals explained, 2 an unexplained proposal (cancel it before executable_at), 3 the server's
// decisions could not be read, 1 a configuration or chain error. Polling mode logs each alarm once
// and keeps running. This entry has its own settings on purpose: it must run where the server's
// configuration (and its database) is not.

const Env = z.object({
  GUARDIAN_RPC_URL: z.string().url(),
  GUARDIAN_ESCROWS: z.string().regex(/^0x[0-9a-fA-F]{40}(,0x[0-9a-fA-F]{40})*$/),
  GUARDIAN_SERVER_URL: z.string().url(),
  GUARDIAN_RECEIPT_KEYS: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}:[A-Za-z0-9_-]{43}(,[A-Za-z0-9._-]{1,64}:[A-Za-z0-9_-]{43})*$/),
  GUARDIAN_FROM_BLOCK: z.coerce.number().int().min(0).optional(),
  GUARDIAN_ALERT_WEBHOOK: z.string().url().optional(),
  GUARDIAN_ONCE: z.enum(["0", "1"]).default("0"),
  GUARDIAN_POLL_SECONDS: z.coerce.number().int().min(1).default(12),
});

function log(level: "info" | "error", msg: string, extra: Record<string, unknown> = {}) {
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...extra });
  (level === "error" ? process.stderr : process.stdout).write(`${line}\n`);
}

async function notify(webhook: string | undefined, body: Record<string, unknown>) {
  if (!webhook) return;
  await fetch(webhook, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }).catch((err: unknown) => log("error", "guardian: alert webhook failed", { error: String(err) }));
}

async function once(cfg: GuardianConfig, webhook: string | undefined, seen: Set<string>): Promise<number> {
  try {
    const alarms = await guardianPass(cfg);
    const fresh = alarms.filter((a) => !seen.has(`${a.tx_hash}:${a.proposal_hash}`));
    for (const a of fresh) {
      seen.add(`${a.tx_hash}:${a.proposal_hash}`);
      log("error", "guardian: a release is proposed that no signed decision of the server explains; cancel it", {
        ...a,
      });
      await notify(webhook, { type: "guardian.alarm", ...a } satisfies Record<string, unknown> & GuardianAlarm);
    }
    if (alarms.length === 0) log("info", "guardian: every pending proposal is explained by a signed decision");
    return alarms.length ? 2 : 0;
  } catch (err) {
    if (err instanceof ServerUnreadable) {
      log("error", "guardian: the server's signed decisions cannot be read; treat every proposal as unexplained", {
        error: err.message,
      });
      await notify(webhook, { type: "guardian.server_unreadable", error: err.message });
      return 3;
    }
    log("error", "guardian: chain read failed", { error: err instanceof Error ? err.message : String(err) });
    return 1;
  }
}

async function main() {
  const parsed = Env.safeParse(process.env);
  if (!parsed.success) {
    log("error", "guardian: bad configuration", {
      issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
    });
    process.exit(1);
  }
  const e = parsed.data;
  const cfg: GuardianConfig = {
    rpcUrl: e.GUARDIAN_RPC_URL,
    escrows: e.GUARDIAN_ESCROWS.split(","),
    serverUrl: e.GUARDIAN_SERVER_URL,
    keys: e.GUARDIAN_RECEIPT_KEYS.split(",").map((k) => {
      const [key_id, public_key] = k.split(":") as [string, string];
      return { key_id, public_key };
    }),
    fromBlock: e.GUARDIAN_FROM_BLOCK === undefined ? null : BigInt(e.GUARDIAN_FROM_BLOCK),
  };
  const seen = new Set<string>();
  if (e.GUARDIAN_ONCE === "1") process.exit(await once(cfg, e.GUARDIAN_ALERT_WEBHOOK, seen));
  for (;;) {
    await once(cfg, e.GUARDIAN_ALERT_WEBHOOK, seen);
    await new Promise((r) => setTimeout(r, e.GUARDIAN_POLL_SECONDS * 1000));
  }
}

void main();
