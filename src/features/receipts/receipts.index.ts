import { sendJsonValue } from "../../http/http-cache";
import { ctxFromRequest } from "../../http/context";
import { router } from "../../http/openapi";
import { handle, operation } from "../../http/operation";
import { getReceiptRoute, verifyReceiptRoute } from "./receipts.routes";
import { getReceipt, verifyReceiptFor } from "./receipts.service";

// The operation REST and MCP share (src/http/operation.ts).
export const getReceiptOp = operation({
  route: getReceiptRoute,
  input: ({ param }) => ({ missionId: param.id, submissionId: param.submission_id }),
  verb: getReceipt,
});

export const receiptsRouter = router()
  .openapi(getReceiptRoute, handle(getReceiptOp, { send: (c, receipt) => sendJsonValue(c, receipt) }))
  .openapi(verifyReceiptRoute, async (c) => {
    const { receipt, manifest, manifest_origin } = c.req.valid("json");
    return c.json(
      await verifyReceiptFor(ctxFromRequest(c), { receipt, manifest, manifestOrigin: manifest_origin }),
      200,
    );
  });
