import { router } from "../../http/openapi";
import { checkIdempotencyKey } from "../../lib/idempotency";
import { requireAgent } from "../auth/auth.service";
import { awardMission } from "./creator-judges";
import { awardRoute } from "./verification.routes";

export const verificationRouter = router().openapi(awardRoute, async (c) => {
  const caller = requireAgent(c.get("identity"), "UNAUTHORIZED");
  const r = await awardMission(c.get("deps"), caller, c.req.valid("param").id, c.req.valid("json"), checkIdempotencyKey(c.req.header("idempotency-key")));
  if (r.replayed) c.header("Idempotent-Replayed", "true");
  c.header("Content-Type", "application/json; charset=utf-8");
  return c.body(r.body, r.status as 200) as never;
});
