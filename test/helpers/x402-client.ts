import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { expect } from "vitest";
import { getAddress } from "viem";
import { PUBLIC_URL, type TestApp } from "./app";
import { signIn } from "./agents";
import type { EscrowChain } from "./escrow-chain";

// The official x402 client (@x402/fetch + @x402/evm's exact scheme) against a test app on anvil
// (docs/payments.md): an agent that holds USDC and no ETH, and a fetch that goes into the app.

/** A signed-in agent holding `amount` USDC on the chain and no ETH, with its x402 client. */
export async function agentWithUsdc(s: { t: TestApp; chain: EscrowChain }, amount: bigint) {
  const agent = await signIn(s.t);
  await s.chain.mint(agent.account.address, amount);
  await s.chain.setEth(agent.address, 0n);
  // TestUSDC is no default asset of the client: allowed here by its address, capped at 20 USDC.
  const client = registerExactEvmScheme(new x402Client(), { signer: agent.account }).setSpendControls({
    allowedAssets: [{ network: "eip155:8453", asset: s.chain.usdc, maxAmountPerPayment: "20000000" }],
  });
  return { ...agent, client };
}

/** A fetch into the app (the x402 client's transport), keeping each request it sent, with a hook on each request and response. */
export function appFetch(
  t: TestApp,
  hooks: { request?: (r: Request) => Promise<void>; response?: (r: Response) => Response } = {},
) {
  const seen: Request[] = [];
  const f = async (input: string | URL | Request, init?: RequestInit) => {
    const req = new Request(input, init);
    seen.push(req.clone());
    await hooks.request?.(req);
    const res = await t.app.request(req);
    return hooks.response ? hooks.response(res) : res;
  };
  return { fetch: f as typeof fetch, seen };
}

/** A JSON POST to `path` by the agent holding `token`, as fetch's (url, init) arguments. */
export const postRequest = (token: string, path: string, body: unknown) =>
  [
    `${PUBLIC_URL}${path}`,
    {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    },
  ] as const;

/** An x402 header's JSON (PAYMENT-REQUIRED, PAYMENT-SIGNATURE: base64). */
export const decodeX402 = (header: string | null) => JSON.parse(Buffer.from(header ?? "", "base64").toString("utf8"));

/** The 402's PAYMENT-REQUIRED (also its JSON body): the exact scheme on the chain, `amount` USDC to the treasury. */
export async function expectPaymentRequired(res: Response, chain: EscrowChain, amount: bigint) {
  expect(res.status).toBe(402);
  const required = decodeX402(res.headers.get("PAYMENT-REQUIRED"));
  expect(required).toMatchObject({
    x402Version: 2,
    error: "payment_required",
    accepts: [
      {
        scheme: "exact",
        network: "eip155:8453",
        amount: amount.toString(),
        asset: getAddress(chain.usdc),
        payTo: getAddress(chain.treasury),
      },
    ],
  });
  return required;
}
