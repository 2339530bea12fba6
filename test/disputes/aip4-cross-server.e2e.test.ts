import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crossServerProofMessage } from "../../src/features/disputes/disputes.identity";
import { TEST_CONTENT_HOST } from "../helpers/app";
import { freePort } from "../helpers/issuer";
import { E2E_ADMIN, httpCall, httpSignIn, startHub, type Hub } from "../helpers/process";

// AIP-4 §7 cross-server disputes between two real server processes (two hubs). The agent's
// identity is hosted on hub B (it won a mission there: B attests it, AIP-3 §2); on hub A it files a
// dispute without signing in, with its attestation URL at B and an EIP-191 signature by its own
// key over the filing (§7.2: A fetches the attestation at filing time and verifies it against B's
// manifest key; the agent must be the submitter of the submission disputed). Hub A names B as a
// trusted private issuer (both sit on loopback: the shared fetcher reaches public addresses only).

const hubs: Hub[] = [];
let A: string;
let B: string;

beforeAll(async () => {
  const portA = await freePort("127.0.0.1");
  const portB = await freePort(TEST_CONTENT_HOST);
  B = `http://${TEST_CONTENT_HOST}:${portB}`;
  const started = await Promise.all([
    startHub({
      host: "127.0.0.1",
      port: portA,
      prefix: "oabp_aip4x",
      env: { OABP_TRUSTED_ISSUERS: JSON.stringify([{ url: B, private_address: TEST_CONTENT_HOST }]) },
    }),
    startHub({ host: TEST_CONTENT_HOST, port: portB, prefix: "oabp_aip4x" }),
  ]);
  hubs.push(...started);
  A = started[0].base;
}, 240_000);

afterAll(async () => {
  for (const h of hubs) await h.stop();
});

/** SIWE on a hub, whose public URL is its own address. */
const signIn = (base: string, account?: PrivateKeyAccount) =>
  httpSignIn(base, { publicUrl: base, ...(account && { account }) });

/** A credited creator's first_valid_match mission on a hub. */
async function fvmMission(base: string, expected: string) {
  const creator = await signIn(base);
  const credit = { agent_id: creator.address, asset: "USDC", amount: "1000000000" };
  expect((await httpCall(base, "POST", "/admin/ledger/credit", credit, E2E_ADMIN)).status).toBe(200);
  const m = await httpCall(
    base,
    "POST",
    "/missions",
    {
      title: "Name the capital",
      description: "Answer with the capital of France.",
      reward: { asset: "USDC", amount: "100000000" },
      verification: { type: "first_valid_match", params: { expected } },
      deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    },
    creator.token,
  );
  expect(m.status, m.text).toBe(201);
  return m.body.id as string;
}

describe("AIP-4 §7 cross-server disputes (two hubs)", () => {
  it("§7.2: a filer proves its hub-B identity on hub A (attestation URL + its key's signature); §5 declares cross_server_disputes", async () => {
    expect((await httpCall(A, "GET", "/.well-known/oabp.json")).body.cross_server_disputes).toBe(true);

    // Hub B: the agent wins a mission, so B attests it.
    const agent = privateKeyToAccount(generatePrivateKey());
    const onB = await signIn(B, agent);
    const missionB = await fvmMission(B, "paris");
    const won = await httpCall(B, "POST", `/missions/${missionB}/submissions`, { content: "It is Paris" }, onB.token);
    expect(won.body.status).toBe("accepted");
    const attestationUrl = `${B}/reputation/${onB.address}/attestation`;
    expect((await httpCall(B, "GET", `/reputation/${onB.address}/attestation`)).status).toBe(200);

    // Hub A: the same agent's submission is rejected by a rule it disputes as bad_spec.
    const missionA = await fvmMission(A, "0x");
    const onA = await signIn(A, agent);
    const sub = await httpCall(
      A,
      "POST",
      `/missions/${missionA}/submissions`,
      { content: "no prefix here" },
      onA.token,
    );
    expect(sub.body).toMatchObject({ status: "rejected", reason: "expected_not_matched" });

    const filing = async (
      signer: PrivateKeyAccount,
      signedAt = new Date().toISOString(),
      submissionId = sub.body.id,
    ) => {
      return fileBadSpecOnA({
        missionId: missionA,
        submissionId,
        attestationUrl,
        signer,
        signedAt,
        description: "The rule accepts any 0x string, not the capital the mission asks for",
      });
    };

    // The attestation is a public document, not a bearer token: another key's signature is refused.
    const stranger = await filing(privateKeyToAccount(generatePrivateKey()));
    expect(stranger.status, stranger.text).toBe(401);
    expect(stranger.body.details.reason).toBe("proof_not_subject");
    // A proof signed long ago is refused (the signature names its time).
    const stale = await filing(agent, new Date(Date.now() - 3_600_000).toISOString());
    expect(stale.status).toBe(401);
    expect(stale.body.details.reason).toBe("proof_stale");

    const r = await filing(agent);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      dispute_type: "bad_spec",
      filed_by: onB.address,
      submission_id: sub.body.id,
      status: "open",
      evidence: {
        cross_server_identity: { attestation_url: attestationUrl, issuer: `${B}/` },
      },
    });
    const manifestB = (await httpCall(B, "GET", "/.well-known/oabp.json")).body;
    expect(r.body.evidence.cross_server_identity.issuer_address).toBe(manifestB.issuer_address);

    // §7.3 "server" actor: hub A's operator rules; a rejection costs the cross-server filer −5 (§6.3).
    const ruled = await httpCall(
      A,
      "POST",
      `/api/disputes/${r.body.dispute_id}/resolve`,
      { outcome: "rejected", rationale: "the rule says 0x" },
      E2E_ADMIN,
    );
    expect(ruled.status, ruled.text).toBe(200);
    expect(ruled.body.corrective_action).toMatchObject({ action: "filer_penalty", filer: onB.address, penalty: -5 });
  });

  it("§7.2 item 2: the attested agent must be the submitter of the submission disputed", async () => {
    const agent = privateKeyToAccount(generatePrivateKey());
    const onB = await signIn(B, agent);
    const missionB = await fvmMission(B, "paris");
    await httpCall(B, "POST", `/missions/${missionB}/submissions`, { content: "Paris" }, onB.token);
    const missionA = await fvmMission(A, "0x");
    const other = await signIn(A);
    const sub = await httpCall(A, "POST", `/missions/${missionA}/submissions`, { content: "nope" }, other.token);
    const r = await fileBadSpecOnA({
      missionId: missionA,
      submissionId: sub.body.id,
      attestationUrl: `${B}/reputation/${onB.address}/attestation`,
      signer: agent,
      description: "Someone else's submission",
    });
    expect(r.status, r.text).toBe(422);
    expect(r.body.details.reason).toBe("not_your_submission");
  });

  it("§7.4: an upheld cross-server bad_spec gives its filer +2 and costs the creator −10 (dispute_upheld) on hub A", async () => {
    const agent = privateKeyToAccount(generatePrivateKey());
    const onB = await signIn(B, agent);
    const missionB = await fvmMission(B, "paris");
    await httpCall(B, "POST", `/missions/${missionB}/submissions`, { content: "Paris" }, onB.token);
    const missionA = await fvmMission(A, "0x");
    const creator = (await httpCall(A, "GET", `/missions/${missionA}`)).body.creator as string;
    const onA = await signIn(A, agent);
    const sub = await httpCall(A, "POST", `/missions/${missionA}/submissions`, { content: "no prefix" }, onA.token);
    const filed = await fileBadSpecOnA({
      missionId: missionA,
      submissionId: sub.body.id,
      attestationUrl: `${B}/reputation/${onB.address}/attestation`,
      signer: agent,
      description: "The rule accepts any 0x string",
    });
    expect(filed.status, filed.text).toBe(201);
    const rating = async (id: string) => (await httpCall(A, "GET", `/agents/${id}`)).body.rating as number;
    const [filerBefore, creatorBefore] = [await rating(onB.address), await rating(creator)];
    const ruled = await httpCall(
      A,
      "POST",
      `/api/disputes/${filed.body.dispute_id}/resolve`,
      { outcome: "upheld", rationale: "the rule does not check the capital" },
      E2E_ADMIN,
    );
    expect(ruled.status, ruled.text).toBe(200);
    expect(ruled.body.corrective_action.reputation).toMatchObject({
      reason: "dispute_upheld",
      filer: { agent_id: onB.address, delta: 2 },
      creator: { agent_id: creator, delta: -10 },
    });
    expect(await rating(onB.address)).toBe(filerBefore + 2);
    expect(await rating(creator)).toBe(creatorBefore - 10);
    const history = (await httpCall(A, "GET", `/agents/${creator}/history`)).body;
    expect(JSON.stringify(history)).toContain('"dispute_upheld"');
  });
});

/**
 * A bad_spec dispute filed on hub A with no bearer token: the identity is the one hub B attests
 * at `attestationUrl`, proven by `signer`'s EIP-191 signature over the filing (AIP-4 §7.2).
 */
async function fileBadSpecOnA(o: {
  missionId: string;
  submissionId: string;
  attestationUrl: string;
  signer: PrivateKeyAccount;
  description: string;
  signedAt?: string;
}) {
  const signedAt = o.signedAt ?? new Date().toISOString();
  const message = crossServerProofMessage({
    server: new URL(A).origin,
    dispute_type: "bad_spec",
    mission_id: o.missionId,
    submission_id: o.submissionId,
    attestation_url: o.attestationUrl,
    signed_at: signedAt,
  });
  return httpCall(A, "POST", "/api/disputes", {
    dispute_type: "bad_spec",
    mission_id: o.missionId,
    submission_id: o.submissionId,
    evidence: { description: o.description },
    cross_server_identity: {
      attestation_url: o.attestationUrl,
      signed_at: signedAt,
      signature: await o.signer.signMessage({ message }),
    },
  });
}
