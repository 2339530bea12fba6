import { encodeFunctionData, erc20Abi, keccak256, toHex, type Address, type Hex } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { escrowFundAbi, prepareFund, sendPrepared } from "../../packages/client/src/escrow-fund";
import { gasWithHeadroom } from "../../packages/client/src/gas";
import { missionEscrowAbi } from "../../src/lib/abi/mission-escrow";
import { newAccount } from "../helpers/agents";
import { startEscrowChain, type EscrowChain } from "../helpers/escrow-chain";

// Gas race (docs/base-rail.md "Funding from the tools"): a deposit estimated while the
// escrow holds the token (held[token] and the escrow's token balance non-zero → non-zero) and
// included after the only other slot left (zero → non-zero, ~17k gas more per slot). Sent with
// the node's exact estimate it runs out of gas; sent the way the tools send it (gas.ts), it lands.

let chain: EscrowChain;
beforeAll(async () => {
  chain = await startEscrowChain();
}, 120_000);
afterAll(() => chain?.stop());

const held = (token: Address) =>
  chain.anvil.publicClient.readContract({
    address: chain.escrow,
    abi: missionEscrowAbi,
    functionName: "held",
    args: [token],
  });

it(
  "estimate with held > 0, include after it fell to 0: the exact estimate runs out of gas, the tools' gas lands",
  {
    timeout: 120_000,
  },
  async () => {
    const pc = chain.anvil.publicClient;
    const other = newAccount();
    const keyOther = keccak256(toHex("mis_gas_race_other"));
    await chain.fund(other, keyOther, 10_000_000n, 0n);
    expect(await held(chain.usdc)).toBe(10_000_000n);

    const funder = newAccount();
    const amount = 100_000_000n;
    const spamFee = 5_000_000n;
    await chain.setEth(funder.address, 10n ** 18n);
    await chain.mint(funder.address, 2n * (amount + spamFee));
    const wallet = chain.wallet(funder);
    await pc.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: chain.usdc,
        abi: erc20Abi,
        functionName: "approve",
        args: [chain.escrow, 2n * (amount + spamFee)],
      }),
    });
    const refundAfter = BigInt(Math.floor(Date.now() / 1000) + 20 * 86_400);
    const fundCall = (key: Hex) =>
      encodeFunctionData({
        abi: escrowFundAbi,
        functionName: "fundUntil",
        args: [key, chain.usdc, amount, spamFee, refundAfter, 0n], // contract v4: no signed-only time
      });
    const keyA = keccak256(toHex("mis_gas_race_a"));
    const keyB = keccak256(toHex("mis_gas_race_b"));
    // Both estimated now, while the other slot keeps held[token] > 0.
    const exact = await prepareFund(pc, funder.address, chain.escrow, fundCall(keyA));
    const tools = await prepareFund(pc, funder.address, chain.escrow, fundCall(keyB));
    const block = await pc.getBlock();
    expect(tools.gas).toBe(gasWithHeadroom(tools.estimate, block.gasLimit));

    // The resolver refunds the only other slot: the escrow holds nothing of the token any more.
    await pc.waitForTransactionReceipt({
      hash: await chain.wallet(chain.resolver).writeContract({
        address: chain.escrow,
        abi: missionEscrowAbi,
        functionName: "refund",
        args: [keyOther, other.address],
      }),
    });
    expect(await held(chain.usdc)).toBe(0n);
    expect(await chain.usdcBalance(chain.escrow)).toBe(0n);

    const failed = await pc.waitForTransactionReceipt({ hash: await sendPrepared(wallet, exact, exact.estimate) });
    expect(failed.status).toBe("reverted");
    expect(failed.gasUsed).toBe(exact.estimate); // out of gas: every unit of the limit spent
    expect(await held(chain.usdc)).toBe(0n);

    const ok = await pc.waitForTransactionReceipt({ hash: await sendPrepared(wallet, tools) });
    expect(ok.status).toBe("success");
    expect(ok.gasUsed).toBeGreaterThan(tools.estimate);
    expect(ok.gasUsed).toBeLessThanOrEqual(tools.gas);
    expect(await held(chain.usdc)).toBe(amount);
    expect(
      await pc.readContract({
        address: chain.escrow,
        abi: escrowFundAbi,
        functionName: "refundAfterOf",
        args: [keyB, funder.address],
      }),
    ).toBe(refundAfter);
    console.log(
      `gas race: estimate ${exact.estimate} with held > 0; used ${ok.gasUsed} after held fell to 0; sent with ${tools.gas}`,
    );
  },
);
