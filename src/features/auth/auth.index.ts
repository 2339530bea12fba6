import { router } from "../../http/openapi";
import { attestationRoute, nonceRoute, siweRoute } from "./auth.routes";
import { bindRegistryAttestation, issueNonce, signInWithEthereum } from "./auth.service";

export const authRouter = router()
  .openapi(nonceRoute, async (c) => c.json(await issueNonce(c.get("deps")), 200))
  .openapi(siweRoute, async (c) => c.json(await signInWithEthereum(c.get("deps"), c.req.valid("json")), 200))
  .openapi(attestationRoute, async (c) => c.json(await bindRegistryAttestation(c.get("deps"), c.req.valid("json")), 200));
