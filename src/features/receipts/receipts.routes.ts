import { createRoute } from "@hono/zod-openapi";
import { routes } from "../../http/route";
import { ConditionalHeaders, notModified } from "../../http/http-cache";
import { errors, jsonBody, jsonResponse } from "../../http/openapi";
import { MissionReceipt, ReceiptParams, VerifyReceiptRequest, VerifyReceiptResult } from "./receipts.schemas";

const route = routes("receipts");

export const getReceiptRoute = createRoute({
  ...route.get(
    "/missions/{id}/receipts/{submission_id}",
    "The signed completion receipt of a paid submission of a resolved mission (AIP-1 §6.1)",
  ),
  request: { params: ReceiptParams, headers: ConditionalHeaders },
  responses: {
    200: jsonResponse(MissionReceipt, "RFC 8785 + ed25519 signed receipt (weak ETag; If-None-Match → 304)"),
    ...notModified,
    ...errors("NOT_FOUND"),
  },
});

export const verifyReceiptRoute = createRoute({
  ...route.post(
    "/receipts/verify",
    "Verify a receipt by the §6.1 procedure, against a given manifest or this server's",
  ),
  request: jsonBody(VerifyReceiptRequest),
  responses: {
    200: jsonResponse(VerifyReceiptResult, "The outcome; an invalid receipt is still a 200 with reasons"),
    ...errors(),
  },
});
