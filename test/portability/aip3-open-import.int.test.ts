import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reputationImports } from "../../src/db/schema/index";
import { signAttestation } from "../../src/features/portability/portability.format";
import { generateSigner } from "../../src/lib/attestation-key";
import { makeTestApp, type TestApp } from "../helpers/app";
import { signIn } from "../helpers/agents";
import { startIssuer, type IssuerServer } from "../helpers/issuer";
import { startReceiver, type Receiver } from "../helpers/receiver";

// AIP-3 §6 open import (docs/aip-3-4.md): an issuer is an origin, not a
// URL path, and only the subject itself imports an untrusted issuer's attestation, so nobody fills
// another agent's issuer slots. Runs on PGlite and Postgres.

let S: IssuerServer;
let T: TestApp;
const hosts: Receiver[] = [];
const signer = generateSigner();
let template: Record<string, any>;

/** An issuer origin whose manifest (at each of `paths`) publishes `signer`'s key. */
async function issuerHost(paths: string[]) {
  const manifest = () => ({
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ issuer_address: signer.address }),
  });
  const r = await startReceiver(Object.fromEntries(paths.map((p) => [`${p}/.well-known/oabp.json`, manifest])));
  hosts.push(r);
  return r;
}

beforeAll(async () => {
  S = await startIssuer();
  const x = await signIn(S.t);
  const r = await S.t.call("GET", `/reputation/${x.address}/attestation`);
  expect(r.status, r.text).toBe(200);
  template = r.body;
  T = await makeTestApp({ OABP_OPEN_IMPORT: "true" });
});
afterAll(async () => {
  await T?.close();
  await S?.close();
  for (const h of hosts) await h.close();
});

/** An attestation about `subject`, issued by `server` (an untrusted base URL) and signed by `signer`. */
function attestation(subject: string, server: string) {
  const { signature: _s, ...unsigned } = template;
  return signAttestation(
    {
      ...unsigned,
      subject: { ...template.subject, address: subject },
      issuer: { ...template.issuer, oabp_server: server, server_address: signer.address },
    },
    signer,
  );
}

const liveIssuers = async (subject: string) =>
  (
    await T.deps.database.db
      .select({ issuer: reputationImports.issuer })
      .from(reputationImports)
      .where(eq(reputationImports.subject, subject))
  ).map((r) => r.issuer);

describe("open import", () => {
  it("one host is one issuer, whatever the path: six paths of one origin hold one slot", async () => {
    const paths = ["/p1", "/p2", "/p3", "/p4", "/p5", "/p6"];
    const host = await issuerHost(paths);
    const other = await issuerHost([""]);
    const v = await signIn(T);
    for (const p of paths) {
      const r = await T.call("POST", "/reputation/import", {
        token: v.token,
        body: await attestation(v.address, `${host.base}${p}/`),
      });
      expect(r.status, `${p}: ${r.text}`).toBe(200);
    }
    // The last path replaced the earlier ones: one live import for the origin.
    expect(await liveIssuers(v.address)).toEqual([`${host.base}/p6`]);
    // Another origin still has a slot.
    const r = await T.call("POST", "/reputation/import", {
      token: v.token,
      body: await attestation(v.address, `${other.base}/`),
    });
    expect(r.status, r.text).toBe(200);
    expect((await liveIssuers(v.address)).sort()).toEqual([`${host.base}/p6`, other.base].sort());
  });

  it("a third party cannot import for someone else: anonymous or another agent → 400 subject_not_caller", async () => {
    const host = await issuerHost([""]);
    const victim = await signIn(T);
    const stranger = await signIn(T);
    const doc = await attestation(victim.address, `${host.base}/`);
    for (const token of [undefined, stranger.token]) {
      const r = await T.call("POST", "/reputation/import", { token, body: doc });
      expect(r.status, r.text).toBe(400);
      expect(r.body).toMatchObject({ imported: false, reason: "subject_not_caller" });
    }
    expect(await liveIssuers(victim.address)).toEqual([]);
    const own = await T.call("POST", "/reputation/import", { token: victim.token, body: doc });
    expect(own.status, own.text).toBe(200);
    expect(await liveIssuers(victim.address)).toEqual([host.base]);
  });
});
