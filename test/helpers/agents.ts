import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { ADMIN_TOKEN, type TestApp } from "./app";

export const newAccount = (): PrivateKeyAccount => privateKeyToAccount(generatePrivateKey());

export async function siweMessageFor(
  t: TestApp,
  account: PrivateKeyAccount,
  over: Partial<Parameters<typeof createSiweMessage>[0]> = {},
) {
  const nonce = (await t.call("POST", "/auth/nonce")).body.nonce as string;
  return createSiweMessage({
    address: account.address,
    chainId: 8453,
    domain: new URL(t.deps.config.publicUrl).host,
    nonce,
    uri: t.deps.config.publicUrl,
    version: "1",
    issuedAt: t.clock.now(),
    ...over,
  });
}

/** Signs in with SIWE (EIP-4361) and returns the bearer token. */
export async function signIn(
  t: TestApp,
  account: PrivateKeyAccount = newAccount(),
): Promise<{ token: string; address: string; account: PrivateKeyAccount }> {
  const message = await siweMessageFor(t, account);
  const signature = await account.signMessage({ message });
  const r = await t.call("POST", "/auth/siwe", { body: { message, signature } });
  if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${r.text}`);
  return { token: r.body.token, address: account.address.toLowerCase(), account };
}

export async function credit(t: TestApp, address: string, amount: bigint | string, asset = "USDC") {
  const r = await t.call("POST", "/admin/ledger/credit", {
    token: ADMIN_TOKEN,
    body: { agent_id: address, asset, amount: amount.toString() },
  });
  if (r.status !== 200) throw new Error(`credit failed: ${r.status} ${r.text}`);
  return r.body;
}

/** A valid §2 mission body; deadline one week after the test clock. */
export function missionBody(t: TestApp, over: Record<string, unknown> = {}) {
  return {
    title: "Find the key",
    description: "Locate the configuration key and submit it.",
    reward: { asset: "USDC", amount: "100000000" },
    verification: { type: "creator_judges", params: {} },
    deadline: new Date(t.clock.now().getTime() + 7 * 86_400_000).toISOString(),
    tags: ["search"],
    ...over,
  };
}

/** A signed-in, credited creator with one open mission. */
export async function openMission(t: TestApp, over: Record<string, unknown> = {}) {
  const creator = await signIn(t);
  await credit(t, creator.address, 1_000_000_000n);
  const r = await t.call("POST", "/missions", { token: creator.token, body: missionBody(t, over) });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return { creator, mission: r.body };
}
