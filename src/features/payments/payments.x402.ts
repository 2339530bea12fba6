import { z } from "@hono/zod-openapi";
import { getAddress, isAddress, isHex, verifyTypedData, type Address, type Hex } from "viem";
import { hexOf } from "../../lib/relayer";

// x402 v2 (docs/payments.md): the `exact` scheme on EVM over EIP-3009 `transferWithAuthorization`,
// its HTTP transport (base64 JSON in PAYMENT-REQUIRED / PAYMENT-SIGNATURE / PAYMENT-RESPONSE) and
// MCP transport (`_meta["x402/payment"]`), and the `payment-identifier` extension. Pure: the
// checks return named reasons (the spec's error codes) instead of throwing.

const X402_VERSION = 2;
/** How long a signed payment stays valid (the requirements' maxTimeoutSeconds). */
export const MAX_TIMEOUT_SECONDS = 300;
const PAYMENT_ID = "payment-identifier";

export interface PaymentRequirements {
  scheme: "exact";
  network: string;
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
}

export interface PaymentRequired {
  x402Version: number;
  error: string;
  resource: { url: string; description: string; mimeType: string };
  accepts: PaymentRequirements[];
  extensions: Record<string, unknown>;
}

export interface SettlementResponse {
  success: boolean;
  transaction: string;
  network: string;
  payer: string;
  errorReason?: string;
}

/** The x402 error codes this server answers with (x402 v2 §"Error codes"). */
const X402_REASONS = {
  payment_required: "PAYMENT-SIGNATURE is required: pay the amount below with the exact scheme",
  invalid_payload: "the payment payload is malformed",
  invalid_x402_version: "only x402 version 2 is spoken here",
  invalid_scheme: "only the exact scheme is accepted",
  invalid_network: "the payment names another network",
  invalid_exact_evm_payload_asset_mismatch: "the payment names another asset",
  invalid_exact_evm_payload_recipient_mismatch: "the authorization pays someone other than the treasury",
  invalid_exact_evm_payload_authorization_value_mismatch: "the authorization's value is not the amount required",
  invalid_exact_evm_payload_authorization_valid_after: "the authorization is not valid yet",
  invalid_exact_evm_payload_authorization_valid_before: "the authorization has expired (or expires too soon to settle)",
  invalid_exact_evm_payload_signature: "the authorization's signature is not the payer's",
  insufficient_funds: "the payer's balance does not cover the authorization",
  invalid_transaction_state: "the transfer failed on chain",
  payment_already_used: "this authorization was already used by another request",
} as const;
export type X402Reason = keyof typeof X402_REASONS;
export const isReason = (r: string | null): r is X402Reason => r !== null && Object.hasOwn(X402_REASONS, r);

const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
const uintString = z.string().regex(/^\d{1,78}$/);

/** The client's PaymentPayload; unknown fields pass (x402 objects grow by extension), our checks read only these. */
const PaymentPayloadSchema = z.object({
  x402Version: z.number().int(),
  accepted: z.object({
    scheme: z.string(),
    network: z.string(),
    amount: z.string(),
    asset: z.string(),
    payTo: z.string(),
  }),
  payload: z.object({
    signature: z.string().refine((s) => isHex(s) && s.length <= 2 + 2 * 65 * 4),
    authorization: z.object({
      from: z.string().refine(isAddress),
      to: z.string().refine(isAddress),
      value: uintString,
      validAfter: uintString,
      validBefore: uintString,
      nonce: hex32,
    }),
  }),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

/** A verified payment: the authorization to relay, its signature and the optional payment id. */
export interface VerifiedPayment {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
  signature: Hex;
  paymentId: string | null;
}

export type PaymentCheck = { ok: true; payment: VerifiedPayment } | { ok: false; reason: X402Reason };

export function paymentRequired(
  req: PaymentRequirements,
  { resource, error }: { resource: { url: string; description: string }; error: X402Reason },
): PaymentRequired {
  return {
    x402Version: X402_VERSION,
    error,
    resource: { ...resource, mimeType: "application/json" },
    accepts: [req],
    extensions: {
      [PAYMENT_ID]: {
        info: { required: false },
        schema: {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: "object",
          properties: { required: { type: "boolean" }, id: { type: "string", minLength: 16, maxLength: 128 } },
          required: ["required"],
        },
      },
    },
  };
}

/** Base64 of the JSON (the HTTP transport's header encoding). */
export const encodeHeader = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");

/** A PAYMENT-SIGNATURE header's object, or null when it is not base64 JSON (bounded: 8 KiB). */
export function decodeHeader(text: string): unknown {
  if (text.length > 8192) return null;
  try {
    return JSON.parse(Buffer.from(text, "base64").toString("utf8"));
  } catch {
    return null;
  }
}

const PaymentIdExtension = z.object({ info: z.object({ id: z.unknown().optional() }) });

/** The payment-identifier extension's id: null when absent, undefined when malformed (16–128 of [A-Za-z0-9_-]). */
const paymentIdOf = (extensions: Record<string, unknown> | undefined): string | null | undefined => {
  const id = PaymentIdExtension.safeParse(extensions?.[PAYMENT_ID]).data?.info.id;
  if (id === undefined) return null;
  return typeof id === "string" && /^[A-Za-z0-9_-]{16,128}$/.test(id) ? id : undefined;
};

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

type Payload = z.infer<typeof PaymentPayloadSchema>;
type Window = { nowSeconds: number; settleMarginSeconds: number };

/** The payload's refusals, in the order they are checked: the first broken rule names the reason. */
const RULES: [X402Reason, (p: Payload, req: PaymentRequirements, at: Window) => boolean][] = [
  ["invalid_x402_version", (p) => p.x402Version !== X402_VERSION],
  ["invalid_scheme", (p) => p.accepted.scheme !== "exact"],
  ["invalid_network", (p, req) => p.accepted.network !== req.network],
  ["invalid_exact_evm_payload_asset_mismatch", (p, req) => !same(p.accepted.asset, req.asset)],
  ["invalid_exact_evm_payload_recipient_mismatch", (p, req) => !same(p.payload.authorization.to, req.payTo)],
  [
    "invalid_exact_evm_payload_authorization_value_mismatch",
    (p, req) => BigInt(p.payload.authorization.value) !== BigInt(req.amount),
  ],
  [
    "invalid_exact_evm_payload_authorization_valid_after",
    (p, _req, at) => BigInt(p.payload.authorization.validAfter) > BigInt(at.nowSeconds),
  ],
  [
    "invalid_exact_evm_payload_authorization_valid_before",
    (p, _req, at) => BigInt(p.payload.authorization.validBefore) < BigInt(at.nowSeconds + at.settleMarginSeconds),
  ],
];

/**
 * Checks a PaymentPayload against the `requirements` at `nowSeconds` (x402 `exact` on EVM, "Verification
 * logic" 1, 3, 4): shape, version, scheme, network, asset, recipient, exact value, validity window
 * (at least `settleMarginSeconds` left to settle), then the EIP-712 signature (an EOA's; the
 * token checks it again on chain). Balance and simulation are the settlement's.
 */
export async function checkPayment(
  raw: unknown,
  { requirements: req, ...at }: Window & { requirements: PaymentRequirements },
): Promise<PaymentCheck> {
  const parsed = PaymentPayloadSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: "invalid_payload" };
  const p = parsed.data;
  const auth = p.payload.authorization;
  const paymentId = paymentIdOf(p.extensions);
  const refusal =
    RULES.find(([, broken]) => broken(p, req, at))?.[0] ?? (paymentId === undefined ? "invalid_payload" : null);
  if (refusal) return { ok: false, reason: refusal };
  const payment: VerifiedPayment = {
    from: getAddress(auth.from),
    to: getAddress(auth.to),
    value: BigInt(auth.value),
    validAfter: BigInt(auth.validAfter),
    validBefore: BigInt(auth.validBefore),
    nonce: hexOf(auth.nonce.toLowerCase()),
    signature: hexOf(p.payload.signature),
    paymentId: paymentId ?? null,
  };
  const signed = await verifyTypedData({
    address: payment.from,
    domain: {
      name: req.extra.name,
      version: req.extra.version,
      chainId: Number(req.network.split(":")[1]),
      verifyingContract: getAddress(req.asset),
    },
    types: TRANSFER_WITH_AUTHORIZATION,
    primaryType: "TransferWithAuthorization",
    message: payment,
    signature: payment.signature,
  }).catch(() => false);
  return signed ? { ok: true, payment } : { ok: false, reason: "invalid_exact_evm_payload_signature" };
}

const TRANSFER_WITH_AUTHORIZATION = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;
