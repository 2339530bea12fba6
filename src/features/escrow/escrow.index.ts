import type { Context } from "hono";
import { ctxFromRequest } from "../../http/context";
import type { AppEnv } from "../../http/types";
import { router } from "../../http/openapi";
import { handle, operation } from "../../http/operation";
import * as routes from "./escrow.routes";
import { actOnPayout, listPayouts, convertPayout } from "../payouts";
import { escrowAttestation } from "../ledger";
import { attachDeposit, getEscrow, treasuryView } from "./escrow.service";
import { requireAdmin } from "../../http/identity";
import { decisionFeed, missionDecisions } from "./escrow.decisions";
import { relayFunding } from "./escrow.relay";

/** POST /admin/payouts/{id}/retry and /fail: the same body, the same verb. */
async function payoutAction(c: Context<AppEnv>, input: { id: string; reason: string; action: "retry" | "fail" }) {
  requireAdmin(c.get("identity"));
  return actOnPayout(ctxFromRequest(c), input);
}

/** Confirmed at depth: the mission is open (200); else accepted, waiting for depth (202). */
const atDepth = <B>(r: { confirmed: boolean; body: B }) => ({ status: r.confirmed ? 200 : 202, body: r.body });

// The mission's funding (src/http/operation.ts): a funded mission shows in the lists.
const attachDepositOp = operation({
  route: routes.attachDepositRoute,
  caller: "agent",
  input: ({ param, json }) => ({ missionId: param.id, txHash: json.tx_hash }),
  verb: attachDeposit,
  answer: atDepth,
  lists: true,
});

const fundingAuthorizationOp = operation({
  route: routes.fundingAuthorizationRoute,
  caller: "agent",
  input: ({ param, json }) => ({
    missionId: param.id,
    validAfter: json.valid_after,
    validBefore: json.valid_before,
    salt: json.salt,
    signature: json.signature,
  }),
  verb: relayFunding,
  answer: atDepth,
  lists: true,
});

export const escrowRouter = router()
  .openapi(routes.attachDepositRoute, handle(attachDepositOp))
  .openapi(routes.fundingAuthorizationRoute, handle(fundingAuthorizationOp))
  .openapi(routes.getEscrowRoute, async (c) =>
    c.json(await getEscrow(ctxFromRequest(c), { missionId: c.req.valid("param").id }), 200),
  )
  .openapi(routes.missionDecisionsRoute, async (c) =>
    c.json((await missionDecisions(ctxFromRequest(c), { missionId: c.req.valid("param").id })) as never, 200),
  )
  .openapi(routes.decisionFeedRoute, async (c) =>
    c.json((await decisionFeed(ctxFromRequest(c), c.req.valid("query"))) as never, 200),
  )
  .openapi(routes.escrowAttestationRoute, async (c) => c.json(await escrowAttestation(ctxFromRequest(c)), 200))
  .openapi(routes.treasuryRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await treasuryView(ctxFromRequest(c)), 200);
  })
  .openapi(routes.listPayoutsRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await listPayouts(ctxFromRequest(c), c.req.valid("query")), 200);
  })
  .openapi(routes.retryPayoutRoute, async (c) => {
    const input = { id: c.req.valid("param").id, reason: c.req.valid("json").reason, action: "retry" as const };
    return c.json(await payoutAction(c, input), 200);
  })
  .openapi(routes.failPayoutRoute, async (c) => {
    const input = { id: c.req.valid("param").id, reason: c.req.valid("json").reason, action: "fail" as const };
    return c.json(await payoutAction(c, input), 200);
  })
  .openapi(routes.convertPayoutRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(
      await convertPayout(ctxFromRequest(c), { id: c.req.valid("param").id, reason: c.req.valid("json").reason }),
      200,
    );
  });
