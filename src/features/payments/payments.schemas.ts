import { z } from "@hono/zod-openapi";

// Wire shapes of x402 deposits (docs/payments.md).

const amount = z
  .string()
  .regex(/^\d{1,78}$/)
  .openapi({ description: "Base units (uint256 as a base-10 string)", example: "10000000" });

export const DepositRequest = z
  .object({
    asset: z.string().min(1).max(64).default("USDC").openapi({ description: "Asset symbol", example: "USDC" }),
    amount,
  })
  .openapi("DepositRequest");

export const DepositHeaders = z.object({
  "payment-signature": z
    .string()
    .max(8192)
    .optional()
    .openapi({ description: "x402 v2 PaymentPayload, base64 JSON (the `exact` scheme on this server's chain)" }),
});

export const Deposit = z
  .object({
    id: z.string(),
    agent_id: z.string(),
    asset: z.string(),
    amount,
    status: z.literal("credited"),
    network: z.string().openapi({ description: "CAIP-2 network of the transfer", example: "eip155:8453" }),
    payer: z.string().openapi({ description: "The wallet that signed the authorization" }),
    tx_hash: z.string().nullable().openapi({ description: "The transferWithAuthorization transaction" }),
    transfer_id: z.string().nullable().openapi({ description: "The ledger transfer that credited the balance" }),
    balance: amount.openapi({ description: "The caller's balance of the asset after the credit" }),
    replayed: z.boolean().openapi({ description: "true: this payment was credited before; nothing was credited now" }),
    created_at: z.string(),
  })
  .openapi("Deposit");

export const PaymentRequiredBody = z
  .object({
    x402Version: z.number().int().openapi({ example: 2 }),
    error: z.string().openapi({ description: "x402 reason: payment_required, or why the payment was refused" }),
    resource: z.object({ url: z.string(), description: z.string(), mimeType: z.string() }),
    accepts: z.array(
      z.object({
        scheme: z.literal("exact"),
        network: z.string(),
        amount: z.string(),
        asset: z.string(),
        payTo: z.string(),
        maxTimeoutSeconds: z.number().int(),
        extra: z.object({ name: z.string(), version: z.string() }),
      }),
    ),
    extensions: z.record(z.string(), z.unknown()),
  })
  .openapi("X402PaymentRequired");
