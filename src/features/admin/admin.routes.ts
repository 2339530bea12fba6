import { z } from "@hono/zod-openapi";
import { bearer, routes } from "../../http/route";
import { requireCaller } from "../../http/identity";
import { Uint } from "../../http/wire";

const route = routes("admin");

const CreditRequest = z
  .object({
    agent_id: z.string(),
    asset: z.string().min(1).max(64),
    amount: Uint,
    memo: z.string().max(200).optional(),
  })
  .openapi("LedgerCredit");

const CreditResponse = z
  .object({ agent_id: z.string(), asset: z.string(), amount: z.string(), balance: z.string(), transfer_id: z.string() })
  .openapi("LedgerCreditResult");

const VerifyResponse = z
  .object({
    ok: z.boolean(),
    entries: z.number().int(),
    problems: z.array(z.record(z.string(), z.unknown())),
  })
  .openapi("LedgerVerification");

/** A credit under an Idempotency-Key: its stored scope (one for the operator; unchanged text) and answer, 200. */
export const creditOnce = {
  scope: "admin POST /admin/ledger/credit",
  answer: (credit: unknown) => ({ status: 200, body: credit }),
};

export const creditRoute = route.post(
  "/admin/ledger/credit",
  "Operator credits an agent's ledger balance (admin token)",
  {
    middleware: [requireCaller("admin")],
    ...bearer,
    in: { headers: z.object({ "idempotency-key": z.string().optional() }), body: CreditRequest },
    ok: [200, CreditResponse, "Credited"],
    errors: [
      ["UNPROCESSABLE", "balance_overflow", "idempotency_key_reused", "unknown_asset"],
      ["CONFLICT", "idempotency_in_flight"],
    ],
  },
);

export const verifyRoute = route.get(
  "/admin/ledger/verify",
  "Re-derive the hash-chained ledger and report any tampering (admin token)",
  { ...bearer, ok: [200, VerifyResponse, "Verification report"] },
);
