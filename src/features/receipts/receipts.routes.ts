import { etagged, routes } from "../../http/route";
import { MissionReceipt, ReceiptParams, VerifyReceiptRequest, VerifyReceiptResult } from "./receipts.schemas";

const route = routes("receipts");

export const getReceiptRoute = route
  .one("/missions/{id}/receipts/{submission_id}", ReceiptParams)
  .get("The signed completion receipt of a paid submission of a resolved mission (AIP-1 §6.1)", {
    ...etagged(MissionReceipt, "RFC 8785 + ed25519 signed receipt"),
    errors: [["NOT_FOUND", "appeal_open"]],
  });

export const verifyReceiptRoute = route.post(
  "/receipts/verify",
  "Verify a receipt by the §6.1 procedure, against a given manifest or this server's",
  {
    in: { body: VerifyReceiptRequest },
    ok: [200, VerifyReceiptResult, "The outcome; an invalid receipt is still a 200 with reasons"],
  },
);
