import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { attestationRoute, nonceRoute, siweRoute } from "./auth.routes";
import { bindRegistryAttestation, issueNonce, signInWithEthereum } from "./auth.service";

export const authRouter = router()
  .openapi(nonceRoute, async (c) => c.json(await issueNonce(ctxFromRequest(c)), 200))
  .openapi(siweRoute, async (c) => c.json(await signInWithEthereum(ctxFromRequest(c), c.req.valid("json")), 200))
  .openapi(attestationRoute, async (c) =>
    c.json(await bindRegistryAttestation(ctxFromRequest(c), c.req.valid("json")), 200),
  );
