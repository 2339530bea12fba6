import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyringFrom, loadOrCreateKeyFile, readKeyFile, rotateKeyFile } from "../../src/lib/receipt-keys";
import { signReceipt } from "../../src/lib/receipt-sign";
import { verifyReceipt as clientVerify } from "../../packages/client/src/receipts";
import { makeTestApp, type TestApp } from "../helpers/app";
import { openMission, signIn } from "../helpers/agents";
import { freePort, runCli } from "../helpers/cli";

// `oabp receipt verify` (offline: the receipt plus the manifest it fetches from the
// receipt's issuer) answers exactly what the server's POST /receipts/verify answers — valid,
// tampered, and across a key rotation (an old receipt, a re-signed one, and one signed with the
// retired key after its retirement).

let t: TestApp;
let server: ServerType;
let base: string;
let dataDir: string;
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await makeTestApp({ OABP_PUBLIC_URL: base });
  dataDir = mkdtempSync(path.join(tmpdir(), "oabp-client-receipts-"));
  t.deps.receiptKeys = loadOrCreateKeyFile(dataDir, t.clock.now()).keyring;
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: t.app.fetch, port, hostname: "127.0.0.1" }, () => resolve(s));
  });
  expect((server.address() as AddressInfo).port).toBe(port);
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function paidReceipt() {
  const { creator, mission } = await openMission(t, { verification: { type: "creator_judges", params: {} } });
  const solver = await signIn(t);
  const sub = await t.call("POST", `/missions/${mission.id}/submissions`, {
    token: solver.token,
    body: { content: `work of ${solver.address}` },
  });
  expect(
    (
      await t.call("POST", `/missions/${mission.id}/award`, {
        token: creator.token,
        body: { winners: [{ submission_id: sub.body.id }] },
      })
    ).status,
  ).toBe(200);
  const r = await t.call("GET", `/missions/${mission.id}/receipts/${sub.body.id}`);
  expect(r.status, r.text).toBe(200);
  return {
    receipt: r.body as Record<string, any>,
    missionId: mission.id as string,
    submissionId: sub.body.id as string,
  };
}

/** The CLI's verdict and the server's, for one receipt. */
async function both(name: string, receipt: unknown) {
  const file = path.join(dataDir, `${name}.json`);
  writeFileSync(file, JSON.stringify(receipt));
  const cli = await runCli(["receipt", "verify", file, "--json", "--server", base], {
    env: { OABP_CONFIG_DIR: path.join(dataDir, "cfg") },
  });
  const server = (await t.call("POST", "/receipts/verify", { body: { receipt } })).body;
  const { issuer: _issuer, ...cliResult } = cli.json;
  expect(cli.code, cli.stderr).toBe(server.valid ? 0 : 1);
  return { cli: cliResult, server };
}

describe("oabp receipt verify ≡ POST /receipts/verify", () => {
  it("valid, tampered, and rotated-key receipts", { timeout: 240_000 }, async () => {
    const first = await paidReceipt();
    const valid = await both("valid", first.receipt);
    expect(valid.server).toEqual({ valid: true, reasons: [], provisional: false });
    expect(valid.cli).toEqual(valid.server);
    // By URL (fetched from its issuer), and the server's own verdict through the CLI (--remote).
    const cfg = { OABP_CONFIG_DIR: path.join(dataDir, "cfg") };
    const byUrl = await runCli(
      ["receipt", "verify", `${base}/missions/${first.missionId}/receipts/${first.submissionId}`, "--json"],
      { env: cfg },
    );
    expect(byUrl.code, byUrl.stderr).toBe(0);
    expect(byUrl.json).toMatchObject({ valid: true, reasons: [] });
    const remote = await runCli(
      ["receipt", "verify", first.missionId, first.submissionId, "--remote", "--json", "--server", base],
      { env: cfg },
    );
    expect(remote.json).toEqual(valid.server);

    const tampers: Record<string, (r: Record<string, any>) => void> = {
      amount: (r) => (r.settlement.amount = String(BigInt(r.settlement.amount) + 1n)),
      agent: (r) => (r.agent_id = "0x000000000000000000000000000000000000dead"),
      // One bit of the signature's bytes flipped (editing the text's last character may only
      // touch base64url's spare bits, which decode to the same bytes).
      signature: (r) => {
        const bytes = Buffer.from(r.signature.value, "base64url");
        bytes[10]! ^= 1;
        r.signature.value = bytes.toString("base64url");
      },
      // The same bytes spelled with non-zero spare bits in the last character: not canonical.
      signature_spelling: (r) => {
        const v: string = r.signature.value;
        const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        r.signature.value = `${v.slice(0, -1)}${alphabet[alphabet.indexOf(v.at(-1)!) ^ 1]}`;
      },
      unknown_key: (r) => (r.signature.key_id = "receipt-key-1999-01"),
    };
    for (const [name, tamper] of Object.entries(tampers)) {
      const copy = structuredClone(first.receipt);
      tamper(copy);
      const v = await both(`tampered-${name}`, copy);
      expect(v.server.valid, name).toBe(false);
      expect(v.cli, name).toEqual(v.server);
      expect(await clientVerify(copy, (await t.call("GET", "/.well-known/oabp.json")).body)).toEqual(v.server);
    }

    // Rotation: the retired key loses its private half; a restart loads the new keyring.
    const oldRecord = readKeyFile(dataDir)[0]!;
    t.clock.advance(40 * 86_400_000);
    rotateKeyFile(dataDir, t.clock.now());
    t.deps.receiptKeys = loadOrCreateKeyFile(dataDir, t.clock.now()).keyring;

    const old = await both("old-after-rotation", first.receipt);
    expect(old.server).toMatchObject({ valid: true });
    expect(old.cli).toEqual(old.server);
    const reissued = (await t.call("GET", `/missions/${first.missionId}/receipts/${first.submissionId}`)).body;
    expect(reissued.signature.key_id).not.toBe(oldRecord.key_id);
    const re = await both("reissued", reissued);
    expect(re.server).toMatchObject({ valid: true });
    expect(re.cli).toEqual(re.server);

    // Someone holding the retired private key signs a receipt issued after the retirement.
    t.clock.advance(60_000);
    const fresh = (await paidReceipt()).receipt;
    const { digest: _d, signature: _s, ...unsigned } = fresh;
    const forged = signReceipt(unsigned, keyringFrom([{ ...oldRecord, valid_until: null }]));
    const f = await both("retired-key", forged);
    expect(f.server).toEqual({ valid: false, reasons: ["key_retired_before_issued_at"], provisional: false });
    expect(f.cli).toEqual(f.server);
  });
});
