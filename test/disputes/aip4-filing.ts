import { ADMIN_TOKEN, type TestApp } from "../helpers/app";

// What the AIP-4 suites (aip4*.int.test.ts) file with: one evidence text, the filing call and the
// resolving call.

export const DAY = 86_400_000;
export const evidence = { description: "The rule accepts any 0x address, not one matching the stated TVL criteria" };

/** POST /api/disputes, anonymous unless a token is given (AIP-4 §2.2). */
export const fileDispute = (t: TestApp, body: Record<string, unknown>, token?: string) =>
  t.call("POST", "/api/disputes", { body, ...(token && { token }) });

/** POST /api/disputes/:id/resolve, as the operator unless a token is given (AIP-4 §3.3 resolution actors). */
export const resolveDispute = (
  t: TestApp,
  id: string,
  body: { outcome: "upheld" | "rejected"; rationale: string },
  token = ADMIN_TOKEN,
) => t.call("POST", `/api/disputes/${id}/resolve`, { token, body });
