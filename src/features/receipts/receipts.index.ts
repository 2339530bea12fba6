import { sendJsonValue } from "../../http/http-cache";
import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { getReceiptRoute, verifyReceiptRoute } from "./receipts.routes";
import { getReceipt, verifyReceiptFor } from "./receipts.service";

export const receiptsRouter = router()
  .openapi(getReceiptRoute, async (c) => {
    const { id, submission_id } = c.req.valid("param");
    const receipt = await getReceipt(ctxFromRequest(c), { missionId: id, submissionId: submission_id });
    return sendJsonValue(c, receipt);
  })
  .openapi(verifyReceiptRoute, async (c) => {
    const { receipt, manifest, manifest_origin } = c.req.valid("json");
    return c.json(
      await verifyReceiptFor(ctxFromRequest(c), { receipt, manifest, manifestOrigin: manifest_origin }),
      200,
    );
  });
