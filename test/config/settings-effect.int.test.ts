import { describe, expect, it } from "vitest";
import { credit, newAccount, openMission, siweMessageFor, signIn } from "../helpers/agents";
import { expectError } from "../helpers/errors";
import { AMENDMENT_MAX_EXTENSION_SECONDS, TOP_UP_MIN_BPS } from "../../src/features/amendments/amendments.service";
import { useTestApp } from "../helpers/suite-app";

// Settings no other suite sets, each set here to a value other than its default and observed
// where it acts (test/config/settings-exercised.test.ts holds every setting to being set somewhere).
const SETTINGS = {
  OABP_SIWE_CHAIN_IDS: "8453,84532",
  OABP_CONTACT: "mailto:operators@oabp.test",
};
const t = useTestApp(SETTINGS);

describe("settings take effect where they act", () => {
  it("OABP_SIWE_CHAIN_IDS: the nonce lists the chains and a message for the second one signs in", async () => {
    expect((await t.call("POST", "/auth/nonce")).body.chain_ids).toEqual([8453, 84532]);
    const account = newAccount();
    const sign = async (chainId: number) => {
      const message = await siweMessageFor(t, account, { chainId });
      return t.call("POST", "/auth/siwe", { body: { message, signature: await account.signMessage({ message }) } });
    };
    expect((await sign(84532)).status).toBe(200);
    const other = await sign(1);
    expectError(other, 401, "UNAUTHORIZED");
    expect(other.body.details.reason).toBe("wrong_chain");
  });

  it("OABP_CONTACT: the manifest says it", async () => {
    const manifest = (await t.call("GET", "/.well-known/oabp.json")).body;
    expect(manifest.contact).toBe("mailto:operators@oabp.test");
  });

  it("AMENDMENT_MAX_EXTENSION_SECONDS: an extension past it is refused, one within it applies, the manifest says it", async () => {
    const { creator, mission } = await openMission(t);
    const extend = (seconds: number) =>
      t.call("POST", `/missions/${mission.id}/amendments`, {
        token: creator.token,
        body: {
          kind: "extend_deadline",
          deadline: new Date(Date.parse(mission.deadline) + seconds * 1000).toISOString(),
        },
      });
    const far = await extend(AMENDMENT_MAX_EXTENSION_SECONDS + 3600);
    expectError(far, 422, "UNPROCESSABLE");
    expect(far.body.details).toMatchObject({
      reason: "extension_too_long",
      max_seconds: AMENDMENT_MAX_EXTENSION_SECONDS,
    });
    const manifest = (await t.call("GET", "/.well-known/oabp.json")).body;
    expect(manifest.amendments.max_extension_seconds).toBe(AMENDMENT_MAX_EXTENSION_SECONDS);
    expect((await extend(1800)).status).toBe(201);
  });

  it("TOP_UP_MIN_BPS: a top-up under that share of the reward is refused, that share applies", async () => {
    const { mission } = await openMission(t);
    const funder = await signIn(t);
    await credit(t, funder.address, 1_000_000_000n);
    const reward = BigInt(mission.reward.amount);
    const least = ((reward * BigInt(TOP_UP_MIN_BPS) + 9999n) / 10_000n).toString();
    const topUp = (amount: string) =>
      t.call("POST", `/missions/${mission.id}/amendments`, { token: funder.token, body: { kind: "top_up", amount } });
    const dust = await topUp((BigInt(least) - 1n).toString());
    expect(dust.status, dust.text).toBe(422);
    expect(dust.body.details).toMatchObject({ field: "amount", min_amount: least });
    expect((await topUp(least)).status).toBe(201);
  });
});
