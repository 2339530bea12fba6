import { createRoute } from "@hono/zod-openapi";
import { routes, signedIn } from "../../http/route";
import { requireCaller } from "../../http/identity";
import { errors, jsonBody, jsonResponse } from "../../http/openapi";
import { MissionIdParam } from "../missions";
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

// Moderation and operator control (docs/moderation.md). Operator routes take the admin token
// only; every one that acts appends to the audit log in its transaction.
const operator = routes("admin", { middleware: [requireCaller("admin")], security: [{ bearer: [] }] });
const moderationRoute = routes("moderation");

export const hideRoute = createRoute({
  ...operator.post(
    "/admin/missions/{id}/hide",
    "Hide a mission from every public read; optionally void and refund it (admin token; audit-logged)",
  ),
  request: { params: MissionIdParam, ...jsonBody(HideRequest) },
  responses: {
    200: jsonResponse(HideResult, "Hidden"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT"),
  },
});

export const unhideRoute = createRoute({
  ...operator.post("/admin/missions/{id}/unhide", "Show a hidden mission again (admin token; audit-logged)"),
  request: { params: MissionIdParam, ...jsonBody(UnhideRequest) },
  responses: {
    200: jsonResponse(HideResult, "Visible again"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT"),
  },
});

export const getSuspensionRoute = createRoute({
  ...operator.get("/admin/agents/{address}/suspension", "Whether an address is suspended (admin token)"),
  request: { params: AddressParam },
  responses: { 200: jsonResponse(Suspension, "Suspension state"), ...errors("UNAUTHORIZED", "FORBIDDEN") },
});

export const suspendRoute = createRoute({
  ...operator.post(
    "/admin/agents/{address}/suspend",
    "Suspend an address: no new missions, claims, submissions, commitments or votes; its existing money still settles (admin token; audit-logged)",
  ),
  request: { params: AddressParam, ...jsonBody(SuspendRequest) },
  responses: { 200: jsonResponse(Suspension, "Suspended"), ...errors("UNAUTHORIZED", "FORBIDDEN", "UNPROCESSABLE") },
});

export const unsuspendRoute = createRoute({
  ...operator.post("/admin/agents/{address}/unsuspend", "Lift a suspension (admin token; audit-logged)"),
  request: { params: AddressParam, ...jsonBody(UnsuspendRequest) },
  responses: { 200: jsonResponse(Suspension, "Lifted"), ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND") },
});

export const reportRoute = createRoute({
  ...moderationRoute.post(
    "/missions/{id}/reports",
    "Report a mission to the operator (signed-in agents; one open report per reporter per mission)",
  ),
  ...signedIn,
  description:
    "409 `already_reported` (details.report_id); 403 `own_mission`; 429 past OABP_REPORT_RATE reports per agent.",
  request: { params: MissionIdParam, ...jsonBody(CreateReportRequest) },
  responses: {
    201: jsonResponse(Report, "Reported"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "RATE_LIMITED"),
  },
});

export const listReportsRoute = createRoute({
  ...operator.get("/admin/reports", "The reports queue by status (default open), oldest first (admin token)"),
  request: { query: ListReportsQuery },
  responses: { 200: jsonResponse(ReportList, "Reports"), ...errors("UNAUTHORIZED", "FORBIDDEN") },
});

const closeReportRoute = (action: "resolve" | "dismiss") =>
  createRoute({
    ...operator.post(
      `/admin/reports/{id}/${action}`,
      action === "resolve"
        ? "Close a report as acted on (admin token; audit-logged)"
        : "Close a report as unfounded (admin token; audit-logged)",
    ),
    request: { params: ReportIdParam, ...jsonBody(ResolveReportRequest) },
    responses: {
      200: jsonResponse(Report, action === "resolve" ? "Resolved" : "Dismissed"),
      ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT"),
    },
  });
export const resolveReportRoute = closeReportRoute("resolve");
export const dismissReportRoute = closeReportRoute("dismiss");

export const listAllowlistRoute = createRoute({
  ...operator.get("/admin/posting-allowlist", "The posting allow-list and the gate in force (admin token)"),
  request: { query: AllowlistQuery },
  responses: { 200: jsonResponse(AllowlistList, "Allow-list"), ...errors("UNAUTHORIZED", "FORBIDDEN") },
});

export const putAllowlistRoute = createRoute({
  ...operator.put(
    "/admin/posting-allowlist/{address}",
    "Allow an address to post missions under OABP_POSTING_GATE=allow_list (admin token; audit-logged)",
  ),
  request: { params: AddressParam, ...jsonBody(AllowlistPut) },
  responses: { 200: jsonResponse(AllowlistEntry, "Listed"), ...errors("UNAUTHORIZED", "FORBIDDEN") },
});

export const deleteAllowlistRoute = createRoute({
  ...operator.delete(
    "/admin/posting-allowlist/{address}",
    "Remove an address from the posting allow-list (admin token; audit-logged)",
  ),
  request: { params: AddressParam },
  responses: { 204: { description: "Removed" }, ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND") },
});

export const auditRoute = createRoute({
  ...operator.get("/admin/audit", "The append-only operator audit log, newest first (admin token)"),
  request: { query: AuditQuery },
  responses: { 200: jsonResponse(AuditList, "Audit log"), ...errors("UNAUTHORIZED", "FORBIDDEN") },
});
