import { routes, signedIn } from "../../http/route";
import { jsonResponse } from "../../http/openapi";
import { Deposit, DepositHeaders, DepositRequest, PaymentRequiredBody } from "./payments.schemas";

const route = routes("payments");

export const depositRoute = route.post(
  "/agents/me/deposits",
  "Top up the caller's ledger balance with an x402 payment (exact scheme, EIP-3009; docs/payments.md)",
  {
    description:
      "Without `PAYMENT-SIGNATURE`: 402 with `PAYMENT-REQUIRED` (base64 x402 v2 PaymentRequired: scheme exact, the " +
      "chain's CAIP-2 network, the asset's token, `payTo` the treasury, the amount). With it: the authorization is " +
      "verified, settled by the server's relayer and credited to the caller once (200 with `PAYMENT-RESPONSE`). A " +
      "refused payment answers 402 again with the x402 reason in `error`. The same payment again credits nothing " +
      "(`replayed: true`). Any x402 client (e.g. `@x402/fetch`) pays it without custom code.",
    ...signedIn,
    in: { body: DepositRequest, headers: DepositHeaders },
    ok: [200, Deposit, "Paid and credited; `PAYMENT-RESPONSE` carries the settlement"],
    responses: { 402: jsonResponse(PaymentRequiredBody, "Payment required (or refused): see `error`") },
    errors: [
      "INVALID_PARAMETER",
      ["CONFLICT", "in_flight", "payment_identifier_reused"],
      ["UNPROCESSABLE", "balance_overflow", "deposit_below_minimum", "unknown_asset", "x402_not_enabled"],
      ["SERVICE_UNAVAILABLE", "rpc_unavailable", "settlement_pending"],
    ],
  },
);
