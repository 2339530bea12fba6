import { createRoute, z } from "@hono/zod-openapi";
import { pathId } from "../../http/params";
import { routes } from "../../http/route";
import { ctxFromRequest } from "../../http/context";
import { errors, jsonResponse, router } from "../../http/openapi";
import { viewerFor } from "../../db/mission-visibility";
import { AppError } from "../../lib/errors";
import { settlementReceipt } from "../receipts";
import { Submission } from "./submissions.schemas";
import { getSubmissionById } from "./submissions.service";

// Flat submission routes (AIP-3 §10.3; the AIGEN SDK calls /api/submissions/{id}). Mounted at
// "/" and "/api" like every route.
const route = routes("submissions");
const receiptsRoute = routes("receipts");

const Params = z.object({
  id: pathId("id"),
});
const SettlementReceipt = z.record(z.string(), z.unknown()).openapi("SettlementReceipt", {
  description: "AIP-3 §10.1 settlement receipt, eth_personal_sign by the manifest's issuer_address",
});

const getFlat = createRoute({
  ...route.get("/submissions/{id}", "One submission by id; carries its AIP-3 §10 receipt (`receipt`) once paid"),
  request: { params: Params },
  responses: {
    200: jsonResponse(Submission.extend({ receipt: SettlementReceipt.optional() }), "The submission"),
    ...errors("NOT_FOUND"),
  },
});

const getReceipt = createRoute({
  ...receiptsRoute.get(
    "/submissions/{id}/receipt",
    "AIP-3 §10 settlement receipt: 200 settled, 202 partial (payout queued, pending_gas or broadcast), 404 unknown or unpaid",
  ),
  request: { params: Params },
  responses: {
    200: jsonResponse(SettlementReceipt, "Settled"),
    202: jsonResponse(SettlementReceipt, "Partial receipt"),
    ...errors("NOT_FOUND"),
  },
});

export const flatSubmissionsRouter = router()
  .openapi(getFlat, async (c) => {
    const deps = c.get("deps");
    const { id } = c.req.valid("param");
    const sub = await getSubmissionById(ctxFromRequest(c), { submissionId: id });
    if (sub.status !== "accepted") return c.json(sub, 200);
    // §10.3 SHOULD: the receipt embedded as a top-level field once issued.
    const receipt = await settlementReceipt(deps, { submissionId: id, viewer: viewerFor(ctxFromRequest(c)) }).then(
      (r) => r.body,
      (e) => (e instanceof AppError && e.code === "NOT_FOUND" ? undefined : Promise.reject(e)),
    );
    return c.json(receipt ? { ...sub, receipt } : sub, 200);
  })
  .openapi(getReceipt, async (c) => {
    const r = await settlementReceipt(c.get("deps"), {
      submissionId: c.req.valid("param").id,
      viewer: viewerFor(ctxFromRequest(c)),
    });
    return c.json(r.body, r.status);
  });
