import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { ERROR_STATUS } from "../../lib/errors";
import { issueAttestation } from "./portability.issue";
import { importAttestation, trustedIssuers } from "./portability.import";
import { attestationRoute, importRoute, trustedIssuersRoute } from "./portability.routes";

export { importedElos, importedReputation } from "./portability.import";
export const portabilityRouter = router()
  .openapi(attestationRoute, async (c) =>
    c.json(await issueAttestation(ctxFromRequest(c), { address: c.req.valid("param").address }), 200),
  )
  .openapi(importRoute, async (c) => {
    const r = await importAttestation(ctxFromRequest(c), c.req.valid("json"));
    if (r.ok) return c.json(r.body, 200);
    // AIP-3 §4.1's 400 body ({imported:false, reason}) merged with our one error body.
    return c.json(
      {
        imported: false as const,
        reason: r.reason,
        error: "INVALID_PARAMETER",
        message: r.detail,
        request_id: c.get("requestId"),
      },
      ERROR_STATUS.INVALID_PARAMETER,
    );
  })
  .openapi(trustedIssuersRoute, (c) => c.json(trustedIssuers(ctxFromRequest(c)), 200));
