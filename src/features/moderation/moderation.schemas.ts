import { z } from "@hono/zod-openapi";
import { pageOf, exampleId } from "../../http/wire";
import { pathId } from "../../http/params";
import { AUDIT_ACTIONS, REPORT_REASONS, REPORT_STATUSES } from "../../db/vocabulary";
import { Mission } from "../missions";

// Wire shapes of moderation and operator control (docs/moderation.md).

const Reason = z.string().trim().min(1).max(500);
const Address = pathId("address", "0x1111111111111111111111111111111111111111");
const Limit = z.coerce.number().int().min(1).max(100).default(50);
const Cursor = z.string().min(1).max(200).optional();

export const AddressParam = z.object({ address: Address });
export const ReportIdParam = z.object({
  id: pathId("id", exampleId("rep")),
});

export const HideRequest = z
  .object({
    reason: Reason,
    refund: z.boolean().default(false).openapi({
      description:
        "Also void the mission and refund its creator (an open or pending_escrow mission only): one ledger transfer on the ledger rail, a queued refund payout on the base rail",
    }),
  })
  .openapi("HideMissionRequest");
export const UnhideRequest = z.object({ reason: Reason.optional() }).openapi("UnhideMissionRequest");
export const HideResult = z.object({ mission: Mission, refunded: z.boolean() }).openapi("HideMissionResult");

export const SuspendRequest = z
  .object({
    reason: Reason,
    until: z
      .string()
      .datetime({ offset: true })
      .optional()
      .openapi({ description: "Lifted by itself then; absent: until unsuspended" }),
  })
  .openapi("SuspendRequest");
export const UnsuspendRequest = z.object({ reason: Reason.optional() }).openapi("UnsuspendRequest");
export const Suspension = z
  .object({
    address: z.string(),
    suspended: z.boolean(),
    reason: z.string().nullable(),
    suspended_at: z.string().nullable(),
    until: z.string().nullable(),
  })
  .openapi("Suspension");

export const CreateReportRequest = z
  .object({
    reason: z.enum(REPORT_REASONS),
    note: z.string().max(2000).optional(),
  })
  .openapi("CreateReportRequest");
export const Report = z
  .object({
    id: z.string(),
    mission_id: z.string(),
    reporter: z.string(),
    reason: z.enum(REPORT_REASONS),
    note: z.string().nullable(),
    status: z.enum(REPORT_STATUSES),
    created_at: z.string(),
    resolved_at: z.string().nullable(),
    resolution_note: z.string().nullable(),
  })
  .openapi("MissionReport");
export const ListReportsQuery = z.object({
  status: z.enum(REPORT_STATUSES).default("open"),
  mission_id: z.string().min(1).max(64).optional(),
  cursor: Cursor,
  limit: Limit,
});
export const ReportList = pageOf("MissionReportList", { reports: z.array(Report) });
export const ResolveReportRequest = z.object({ note: z.string().max(2000).optional() }).openapi("ResolveReportRequest");

export const AllowlistEntry = z
  .object({ address: z.string(), note: z.string().nullable(), added_at: z.string() })
  .openapi("PostingAllowlistEntry");
export const AllowlistPut = z.object({ note: z.string().max(500).optional() }).openapi("PostingAllowlistPut");
export const AllowlistQuery = z.object({ cursor: Cursor, limit: Limit });
export const AllowlistList = pageOf("PostingAllowlist", {
  gate: z.enum(["off", "allow_list", "min_rating"]),
  entries: z.array(AllowlistEntry),
});

export const AuditQuery = z.object({ action: z.enum(AUDIT_ACTIONS).optional(), cursor: Cursor, limit: Limit });
const AuditEntry = z
  .object({
    seq: z.number().int(),
    at: z.string(),
    action: z.enum(AUDIT_ACTIONS),
    target: z.string().nullable(),
    detail: z.record(z.string(), z.unknown()),
  })
  .openapi("OperatorAuditEntry");
export const AuditList = pageOf("OperatorAuditLog", { entries: z.array(AuditEntry) });
