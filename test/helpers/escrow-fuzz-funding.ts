import { encodeAbiParameters, encodeFunctionData, erc20Abi, keccak256, toHex, type Hex } from "viem";
import { opTools, type FuzzCtx } from "./escrow-fuzz-ctx";
import { U } from "./escrow-v3";
import { signReceiveAuthorization, signUsdcPermit } from "./usdc-sign";

// The funding steps of the contract v3 / v4 invariant suite (test/helpers/escrow-fuzz.ts): approve
// and fund, fund with a refund-after, with a permit (valid or signed by another), and on v4 with
// signed-only times and from EIP-3009 authorizations (fresh, replayed, forged).

/** A random funder (mostly a funded one), mission key (often a recent one), amount, spam fee and refund-after. */
function drawFunding(ctx: FuzzCtx) {
  const { m, r, actors, addr, keys, keyOf } = ctx;
  const f = r.chance(0.85) ? addr(r.pick(opTools(ctx).FUNDERS)) : r.pick(actors);
  if (r.chance(0.25)) keys.push(keyOf(keys.length));
  const key = r.chance(0.5) ? keys.at(-1)! : r.pick(keys.slice(-4));
  const amount = U(r.int(1, 200));
  const spam = r.chance(0.5) ? U(1) : 0n;
  return { f, key, amount, spam, refundAfter: m.time + 2n + BigInt(r.int(60, 40 * 86_400)) };
}

/** One random funding call (`op`: fund, fundUntil, fundUntilWithPermit or fundWithAuthorization). */
export async function fundOp(ctx: FuzzCtx, op: string): Promise<void> {
  const { m, r, actors, addr, acct, byAddr, usdc, escrow, chainId, send, step } = ctx;
  const { v4, E, signedOnly } = opTools(ctx);
  switch (op) {
    case "fund":
    case "fundUntil":
    case "fundUntilWithPermit": {
      const { f, key, amount, spam, ...draw } = drawFunding(ctx);
      let refundAfter = draw.refundAfter;
      if (r.chance(0.05)) refundAfter = m.time + 1n + 3n * 365n * 86_400n;
      let data: Hex;
      let permitOk = false;
      let signedOnlyUntil = 0n;
      if (op === "fundUntilWithPermit") {
        const deadline = m.time + 3600n;
        permitOk = r.chance(0.85);
        const signer = permitOk ? byAddr.get(f)! : f === addr("s1") ? acct.s0! : acct.s1!;
        const {
          v: vv,
          r: pr,
          s: ps,
        } = await signUsdcPermit(signer, {
          chainId,
          token: usdc,
          owner: f,
          spender: escrow,
          value: amount + spam,
          nonce: m.get(m.permitNonce, f),
          deadline,
        });
        signedOnlyUntil = signedOnly(refundAfter);
        data = v4
          ? E(op, [key, usdc, amount, spam, refundAfter, signedOnlyUntil, deadline, vv, pr, ps])
          : E(op, [key, usdc, amount, spam, refundAfter, deadline, vv, pr, ps]);
      } else {
        if (r.chance(0.9)) {
          const approve = encodeFunctionData({
            abi: erc20Abi,
            functionName: "approve",
            args: [escrow, amount + spam],
          });
          if (await send(f, usdc, approve)) m.allowance.set(f, amount + spam);
        }
        if (op === "fund") refundAfter = m.time + 1n + 365n * 86_400n;
        else signedOnlyUntil = signedOnly(refundAfter);
        data =
          op === "fund"
            ? E(op, [key, usdc, amount, spam])
            : v4
              ? E(op, [key, usdc, amount, spam, refundAfter, signedOnlyUntil])
              : E(op, [key, usdc, amount, spam, refundAfter]);
      }
      const call = { funder: f, key, amount, spam, refundAfter, permitOk, signedOnlyUntil };
      const at = m.time + 1n;
      const allowed = ((): boolean => {
        m.time = at;
        const ok = m.allowedFund(call);
        m.time = at - 1n;
        return ok;
      })();
      await step(op, f, escrow, data, allowed, () => m.applyFund(call));
      break;
    }
    case "fundWithAuthorization": {
      if (!v4) return;
      const relayer = r.pick(actors);
      const replay = ctx.auths.length > 0 && r.chance(0.1) ? r.pick(ctx.auths) : undefined;
      if (replay) {
        // The token spent this authorization's nonce when it funded: refused, whatever the slot's state.
        await step(op, relayer, escrow, E(op, replay.args), false, () => {});
        break;
      }
      const { f, key, amount, spam, refundAfter } = drawFunding(ctx);
      const signedOnlyUntil = signedOnly(refundAfter);
      const salt = toHex(r.int(0, 2 ** 31), { size: 32 });
      const nonce = keccak256(
        encodeAbiParameters(
          ["uint256", "address", "bytes32", "uint256", "uint256", "uint256", "uint256", "bytes32"].map((type) => ({
            type,
          })),
          [BigInt(chainId), escrow, key, amount, spam, refundAfter, signedOnlyUntil, salt],
        ),
      );
      const validBefore = m.time + 3600n;
      const forged = r.chance(0.1);
      const signer = forged ? (f === addr("s1") ? acct.s0! : acct.s1!) : byAddr.get(f)!;
      const {
        v,
        r: ar,
        s: as,
      } = await signReceiveAuthorization(signer, {
        chainId,
        token: usdc,
        from: f,
        to: escrow,
        value: amount + spam,
        validBefore,
        nonce,
      });
      const auth = { from: f, validAfter: 0n, validBefore, salt, v, r: ar, s: as };
      const args = [key, usdc, amount, spam, refundAfter, signedOnlyUntil, auth];
      const call = { funder: f, key, amount, spam, refundAfter, permitOk: false, signedOnlyUntil, authorized: true };
      const at = m.time + 1n;
      m.time = at;
      const allowed = !forged && !m.authUsed.has(`${f}:${nonce}`) && m.allowedFund(call);
      m.time = at - 1n;
      await step(op, relayer, escrow, E(op, args), allowed, () => {
        m.applyFund(call);
        m.authUsed.add(`${f}:${nonce}`);
        ctx.auths.push({ from: f, args });
      });
      break;
    }
  }
}
