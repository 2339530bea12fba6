import { routes } from "../../http/route";
import { conditionalGet } from "../../http/http-cache";
import { MissionReceipt, ReceiptParams, VerifyReceiptRequest, VerifyReceiptResult } from "./receipts.schemas";

const route = routes("receipts");

export const getReceiptRoute = route.get(
  "/missions/{id}/receipts/{submission_id}",
  "The signed completion receipt of a paid submission of a resolved mission (AIP-1 §6.1)",
  {
    ...conditionalGet,
    in: { params: ReceiptParams },
    ok: [200, MissionReceipt, "RFC 8785 + ed25519 signed receipt (weak ETag; If-None-Match → 304)"],
    errors: ["NOT_FOUND"],
  },
);

export const verifyReceiptRoute = route.post(
  "/receipts/verify",
  "Verify a receipt by the §6.1 procedure, against a given manifest or this server's",
  {
    in: { body: VerifyReceiptRequest },
    ok: [200, VerifyReceiptResult, "The outcome; an invalid receipt is still a 200 with reasons"],
  },
);
