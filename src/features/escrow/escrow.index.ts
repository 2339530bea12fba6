import { router } from "../../http/openapi";
import { attachDepositRoute, convertPayoutRoute, escrowAttestationRoute, failPayoutRoute, getEscrowRoute, listPayoutsRoute, retryPayoutRoute, treasuryRoute } from "./escrow.routes";
import { actOnPayout, listPayouts } from "./escrow.admin";
import { convertPayout } from "./escrow.convert";
import { escrowAttestation } from "../ledger";
import { attachDeposit, getEscrow, treasuryView } from "./escrow.service";
import { requireAdmin, requireAgent } from "../../http/identity";

export const escrowRouter = router()
  .openapi(attachDepositRoute, async (c) => {
    const caller = requireAgent(c.get("identity"), "UNAUTHORIZED");
    const r = await attachDeposit(c.get("deps"), caller, c.req.valid("param").id, c.req.valid("json").tx_hash);
    return r.status === 200 ? c.json(r.body, 200) : c.json(r.body, 202);
  })
  .openapi(getEscrowRoute, async (c) => {
    const identity = c.get("identity");
    return c.json(await getEscrow(c.get("deps"), identity.kind === "agent" ? identity.address : undefined, c.req.valid("param").id), 200);
  })
  .openapi(escrowAttestationRoute, async (c) => c.json(await escrowAttestation(c.get("deps")), 200))
  .openapi(treasuryRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await treasuryView(c.get("deps")), 200);
  })
  .openapi(listPayoutsRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await listPayouts(c.get("deps"), c.req.valid("query")), 200);
  })
  .openapi(retryPayoutRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await actOnPayout(c.get("deps"), c.req.valid("param").id, "retry", c.req.valid("json").reason), 200);
  })
  .openapi(failPayoutRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await actOnPayout(c.get("deps"), c.req.valid("param").id, "fail", c.req.valid("json").reason), 200);
  })
  .openapi(convertPayoutRoute, async (c) => {
    requireAdmin(c.get("identity"));
    return c.json(await convertPayout(c.get("deps"), c.req.valid("param").id, c.req.valid("json").reason), 200);
  });
