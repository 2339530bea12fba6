import { z } from "@hono/zod-openapi";
import { pageQuery, pageOf, strOrNull, str, idOf, exampleId } from "../../http/wire";
import { pathId } from "../../http/params";

// Private messages about a submission: wire shapes written by hand (docs/style.md rule 6). The body is opaque to the server.

/** The hard ceiling of a body at the edge; the verb applies MESSAGE_MAX_BYTES (UTF-8 bytes). */
const HARD_MAX_CHARS = 1_048_576;

export const SendMessageRequest = z
  .object({
    body: z.string().min(1).max(HARD_MAX_CHARS).openapi({
      description:
        "Opaque text, at most MESSAGE_MAX_BYTES UTF-8 bytes (default 16384): the server stores and returns it as sent and never logs it, so clients may encrypt (e.g. an armored PGP message or base64 ciphertext)",
    }),
  })
  .openapi("SendMessage");

export const Message = z
  .object({
    id: idOf("msg"),
    mission_id: z.string(),
    submission_id: z.string(),
    from: str("The sender's address"),
    to: str("The recipient's address: the other party of the submission"),
    body: z.string(),
    created_at: z.string(),
    read_at: strOrNull("When the recipient marked it read (POST /messages/{id}/read); null while unread"),
  })
  .openapi("Message");
export type MessageWire = z.infer<typeof Message>;

export const MessageList = pageOf("MessageList", {
  messages: z.array(Message),
  unread_count: z
    .number()
    .int()
    .optional()
    .openapi({ description: "Inbox only: unread messages addressed to you (counted up to 10000)" }),
});
export type MessageListWire = z.infer<typeof MessageList>;

const flag = z
  .enum(["true", "false"])
  .transform((v) => v === "true")
  .optional();
const page = pageQuery();

export const MailboxQuery = z.object({
  ...page,
  unread: flag.openapi({ description: "true: unread messages only; false: read ones only" }),
  mission_id: z.string().max(64).optional(),
  submission_id: z.string().max(64).optional(),
});

export const ThreadQuery = z.object(page);

export const MessageIdParam = z.object({
  mid: pathId("mid", exampleId("msg")),
});

export const SubmissionThreadParams = z.object({
  id: pathId("id", exampleId("mis")),
  sid: pathId("sid", exampleId("sub")),
});
