import { z } from "@hono/zod-openapi";
import { validationError } from "../../http/errors";
import { AppError } from "../../lib/errors";
import { unknownFieldError, unknownFields } from "../../lib/unknown-fields";
import { ListMissionsQuery, type ListMissionsFilters } from "../missions";
import { CreateSubmissionRequest, type CreateSubmissionInput } from "../submissions";
import { A2A_ERRORS, MAX_PARTS } from "../../lib/a2a-contract";

// What a SendMessage asks for (docs/a2a.md "Operations"): the A2A envelope is read as A2A §5.7 says
// (unrecognised fields ignored); the OABP request inside a data part is strict, as on REST.

/** An A2A error with its JSON-RPC code; the handler writes it as a JSON-RPC error object. */
export class A2aError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

const Part = z.object({
  text: z.string().optional(),
  data: z.unknown().optional(),
  url: z.string().optional(),
  raw: z.string().optional(),
  mediaType: z.string().max(255).optional(),
});

// A2A §4.1.4 Message, ProtoJSON (camelCase fields, enum names).
const Message = z.object({
  messageId: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\x21-\x7e]+$/, "visible ASCII"),
  role: z.literal("ROLE_USER"),
  parts: z.array(Part).min(1).max(MAX_PARTS),
  contextId: z.string().max(128).optional(),
  taskId: z.string().max(128).optional(),
});

export const SendMessageParams = z.object({
  tenant: z.string().max(128).optional(),
  message: Message,
  configuration: z
    .object({
      taskPushNotificationConfig: z.unknown().optional(),
      historyLength: z.number().int().optional(),
      returnImmediately: z.boolean().optional(),
      acceptedOutputModes: z.array(z.string().max(255)).max(32).optional(),
    })
    .optional(),
});
type SendMessage = z.infer<typeof SendMessageParams>;

export type Intent =
  | { kind: "find"; filters: ListMissionsFilters }
  | { kind: "submit"; missionId: string; submission: CreateSubmissionInput; messageId: string }
  | { kind: "continue"; taskId: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A strict OABP request inside a data part: unknown fields named, then the schema. */
function strict<T>(schema: z.ZodType<T>, value: unknown): T {
  const unknown = unknownFields(schema, value);
  if (unknown.length > 0) throw unknownFieldError(unknown, "body");
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

const SubmitData = CreateSubmissionRequest.extend({ mission_id: z.string().min(1).max(64) });

/** The intent of one message (A2A §3.1.1): find missions, submit to one, or continue a task. */
export function intentOf(params: SendMessage): Intent {
  const m = params.message;
  if (params.configuration?.taskPushNotificationConfig !== undefined)
    throw new A2aError(
      A2A_ERRORS.INVALID_PARAMS,
      "configuration.taskPushNotificationConfig is not taken here: set it with CreateTaskPushNotificationConfig on the task SendMessage returns",
      "push_config_inline",
    );
  if (m.taskId) return { kind: "continue", taskId: m.taskId };
  if (m.parts.some((p) => p.url !== undefined || p.raw !== undefined))
    throw new A2aError(
      A2A_ERRORS.CONTENT_TYPE_NOT_SUPPORTED,
      "file parts are not accepted: send the deliverable inline (text, or data.content) or as data.content_uri + data.content_hash",
      "file_part",
    );
  const data = m.parts.filter((p) => p.data !== undefined);
  if (data.length > 1) throw new AppError("INVALID_PARAMETER", "at most one data part", { reason: "data_parts" });
  const text = m.parts.flatMap((p) => (p.text === undefined ? [] : [p.text])).join("\n");
  const [d] = data;
  if (d !== undefined) {
    if (!isRecord(d.data))
      throw new AppError("INVALID_PARAMETER", "the data part must be an object", { reason: "data" });
    if ("mission_id" in d.data) {
      const { mission_id, ...submission } = strict(SubmitData, d.data);
      return { kind: "submit", missionId: mission_id, submission, messageId: m.messageId };
    }
    return { kind: "find", filters: strict(ListMissionsQuery, d.data) };
  }
  // Text only: a deliverable for the mission named by contextId, or a search.
  if (m.contextId?.startsWith("mis_"))
    return {
      kind: "submit",
      missionId: m.contextId,
      submission: strict(CreateSubmissionRequest, { content: text }),
      messageId: m.messageId,
    };
  return { kind: "find", filters: strict(ListMissionsQuery, text.trim() ? { q: text.trim() } : {}) };
}
