// The resolver scenario of bench/abuse.ts (docs/abuse.md "Resolver"): an in-process app on the
// production fetcher and c-ares resolver, 75 submissions whose names never resolve, then one
// honest deliverable; how long until the honest one is checked.
import http from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import pino from "pino";
import { generateSigner } from "../src/lib/attestation-key";
import { createApp } from "../src/app";
import { openDatabase } from "../src/db/client";
import type { Deps } from "../src/deps";
import { parseEnv } from "../src/env";
import { createEvmPort, createOracleReader } from "../src/lib/evm";
import { ManualClock } from "../src/lib/clock";
import { createSafeFetcher } from "../src/lib/safe-fetch";
import { ResponseCache } from "../src/lib/response-cache";
import { generateKeyring } from "../src/lib/receipt-keys";
import { runPendingChecks } from "../src/jobs/checks";
import { sha256Hex } from "../src/lib/hash";
import { startDnsServer } from "../test/helpers/dns-server";
import { ADMIN, DB_URL, freshDatabase, openMission, signIn, type Call } from "./abuse-setup";

export async function checksScenario(shape: "one_domain" | "ten_domains"): Promise<number> {
  const dns = await startDnsServer({ records: { "honest.example": "127.0.0.2" }, tarpit: (n) => n.includes("never") });
  const database = await openDatabase({ url: await freshDatabase(), poolMax: 10 });
  const config = parseEnv({
    OABP_PUBLIC_URL: "http://bench.test",
    OABP_ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: "silent",
    DATABASE_URL: DB_URL,
    OABP_DNS_SERVERS: dns.address,
    // Every Sybil signs in from this one process: room for them (what is measured is the pipeline).
    OABP_RATE_LIMIT_SESSION_IP: "100000/60",
    OABP_RATE_LIMIT_WRITE_IP: "100000/60",
    OABP_RATE_LIMIT_WRITE_NET_AGENTS: "100000/60",
  });
  const honestServer = http.createServer((_q, s) => s.end("honest"));
  const port = await new Promise<number>((r) =>
    honestServer.listen(0, "127.0.0.2", () => r((honestServer.address() as AddressInfo).port)),
  );
  const clock = new ManualClock(new Date());
  const deps: Deps = {
    config,
    database,
    clock,
    logger: pino({ level: "silent" }),
    evm: createEvmPort(undefined),
    oracle: createOracleReader(undefined),
    chain: null,
    adminToken: ADMIN,
    receiptKeys: generateKeyring(clock.now()),
    attestation: generateSigner(),
    missionLists: new ResponseCache(0),
    // The production fetcher and resolver with their defaults (as deps.build.ts builds them);
    // only the loopback allowance for the honest server is the bench's.
    fetcher: createSafeFetcher({
      allowAddress: (ip) => ip === "127.0.0.2",
      dns: { servers: config.abuse.dnsServers },
      now: () => clock.now().getTime(),
    }),
  };
  const app = createApp(deps);
  const call: Call = async (method, p, o = {}) => {
    const body = o.body === undefined ? undefined : JSON.stringify(o.body);
    const res = await app.request(p, {
      method,
      body,
      headers: {
        ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
        ...(body ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) } : {}),
      },
    });
    return { status: res.status, body: await res.json().catch(() => undefined) };
  };
  const missionId = await openMission(call, config.publicUrl);
  for (let i = 0; i < 75; i++) {
    clock.set(new Date()); // SIWE issuedAt is wall time: keep the server's clock with it
    const a = await signIn(call, config.publicUrl);
    const host = shape === "one_domain" ? `j${i}.sybil-never.example` : `j${i}.never${i % 10}.example`;
    await call("POST", `/missions/${missionId}/submissions`, {
      token: a.token,
      body: { content_uri: `https://${host}/x`, content_hash: `sha256:${sha256Hex(String(i))}` },
    });
  }
  clock.set(new Date());
  const h = await signIn(call, config.publicUrl);
  const honest = (
    await call("POST", `/missions/${missionId}/submissions`, {
      token: h.token,
      body: { content_uri: `http://honest.example:${port}/ok`, content_hash: `sha256:${sha256Hex("honest")}` },
    })
  ).body.id as string;
  const started = performance.now();
  let checkedAt = 0;
  const pg = postgres(DB_URL, { max: 1, onnotice: () => {} });
  const poll = setInterval(async () => {
    const [row] = await pg`select check_result from submissions where id = ${honest}`.catch(() => [] as never[]);
    if (row?.check_result && !checkedAt) checkedAt = performance.now() - started;
  }, 50);
  while (!checkedAt && performance.now() - started < 120_000) {
    await runPendingChecks(deps);
    clock.advance(1000);
    await new Promise((r) => setTimeout(r, 100));
  }
  clearInterval(poll);
  await pg.end();
  honestServer.close();
  await dns.close();
  await database.close();
  return checkedAt;
}
