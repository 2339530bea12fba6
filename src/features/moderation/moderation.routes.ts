import type { z } from "@hono/zod-openapi";
import { operatorOnly, routes, signedIn } from "../../http/route";
import {
  AddressParam,
  AllowlistEntry,
  AllowlistList,
  AllowlistPut,
  AllowlistQuery,
  AuditList,
  AuditQuery,
  CreateReportRequest,
  HideRequest,
  HideResult,
  ListReportsQuery,
  Report,
  ReportIdParam,
  ReportList,
  ResolveReportRequest,
  Suspension,
  SuspendRequest,
  UnhideRequest,
  UnsuspendRequest,
} from "./moderation.schemas";
import { MissionIdParam } from "../../http/params";

// Moderation and operator control (docs/moderation.md). Operator routes take the admin token
// only; every one that acts appends to the audit log in its transaction.
const operator = routes("admin", operatorOnly);
const moderationRoute = routes("moderation");

/** Hiding a mission and showing it again: each its own body, the same answer. */
const visibilityRoute = <B extends z.ZodType>(action: "hide" | "unhide", summary: string, body: B, done: string) =>
  operator.one(`/admin/missions/{id}/${action}`, MissionIdParam).post(summary, {
    in: { body },
    ok: [200, HideResult, done],
    errors:
      action === "hide"
        ? [
            ["CONFLICT", "already_hidden", "not_refundable"],
            ["UNPROCESSABLE", "balance_overflow"],
          ]
        : [["CONFLICT", "not_hidden"]],
  });
export const hideRoute = visibilityRoute(
  "hide",
  "Hide a mission from every public read; optionally void and refund it (admin token; audit-logged)",
  HideRequest,
  "Hidden",
);
export const unhideRoute = visibilityRoute(
  "unhide",
  "Show a hidden mission again (admin token; audit-logged)",
  UnhideRequest,
  "Visible again",
);

export const getSuspensionRoute = operator.get(
  "/admin/agents/{address}/suspension",
  "Whether an address is suspended (admin token)",
  { in: { params: AddressParam }, ok: [200, Suspension, "Suspension state"] },
);

export const suspendRoute = operator.post(
  "/admin/agents/{address}/suspend",
  "Suspend an address: no new missions, claims, submissions, commitments or votes; its existing money still settles (admin token; audit-logged)",
  {
    in: { params: AddressParam, body: SuspendRequest },
    ok: [200, Suspension, "Suspended"],
    errors: [["UNPROCESSABLE", "until_in_past"]],
  },
);

export const unsuspendRoute = operator.post(
  "/admin/agents/{address}/unsuspend",
  "Lift a suspension (admin token; audit-logged)",
  {
    in: { params: AddressParam, body: UnsuspendRequest },
    ok: [200, Suspension, "Lifted"],
    errors: [["NOT_FOUND", "not_suspended"]],
  },
);

export const reportRoute = moderationRoute.post(
  "/missions/{id}/reports",
  "Report a mission to the operator (signed-in agents; one open report per reporter per mission)",
  {
    ...signedIn,
    description:
      "409 `already_reported` (details.report_id); 403 `own_mission`; 429 past OABP_REPORT_RATE reports per agent.",
    in: { params: MissionIdParam, body: CreateReportRequest },
    ok: [201, Report, "Reported"],
    errors: ["NOT_FOUND", ["CONFLICT", "already_reported"], "RATE_LIMITED", ["FORBIDDEN", "own_mission", "suspended"]],
  },
);

export const listReportsRoute = operator.get(
  "/admin/reports",
  "The reports queue by status (default open), oldest first (admin token)",
  { in: { query: ListReportsQuery }, ok: [200, ReportList, "Reports"] },
);

const closeReportRoute = (action: "resolve" | "dismiss") =>
  operator.post(
    `/admin/reports/{id}/${action}`,
    action === "resolve"
      ? "Close a report as acted on (admin token; audit-logged)"
      : "Close a report as unfounded (admin token; audit-logged)",
    {
      in: { params: ReportIdParam, body: ResolveReportRequest },
      ok: [200, Report, action === "resolve" ? "Resolved" : "Dismissed"],
      errors: ["NOT_FOUND", ["CONFLICT", "report_closed"]],
    },
  );
export const resolveReportRoute = closeReportRoute("resolve");
export const dismissReportRoute = closeReportRoute("dismiss");

export const listAllowlistRoute = operator.get(
  "/admin/posting-allowlist",
  "The posting allow-list and the gate in force (admin token)",
  { in: { query: AllowlistQuery }, ok: [200, AllowlistList, "Allow-list"] },
);

const allowlisted = operator.at("/admin/posting-allowlist/{address}", { params: AddressParam });

export const putAllowlistRoute = allowlisted.put(
  "Allow an address to post missions under OABP_POSTING_GATE=allow_list (admin token; audit-logged)",
  { in: { body: AllowlistPut }, ok: [200, AllowlistEntry, "Listed"] },
);

export const deleteAllowlistRoute = allowlisted.delete(
  "Remove an address from the posting allow-list (admin token; audit-logged)",
  { ok: [204, "Removed"], errors: ["NOT_FOUND"] },
);

export const auditRoute = operator.get(
  "/admin/audit",
  "The append-only operator audit log, newest first (admin token)",
  { in: { query: AuditQuery }, ok: [200, AuditList, "Audit log"] },
);
