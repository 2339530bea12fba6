import { createRoute } from "@hono/zod-openapi";
import { routes, signedIn } from "../../http/route";
import { errors, jsonBody, jsonResponse } from "../../http/openapi";
import {
  MailboxQuery,
  Message,
  MessageIdParam,
  MessageList,
  SendMessageRequest,
  SubmissionThreadParams,
  ThreadQuery,
} from "./messages.schemas";

// Private messages between a mission's creator and a submitter. Every route needs the caller to be one of the two parties.
const route = routes("messages");

export const sendMessageRoute = createRoute({
  ...route.post(
    "/missions/{id}/submissions/{sid}/messages",
    "Send a private message about a submission: the creator to the submitter, or the submitter to the creator",
  ),
  ...signedIn,
  description:
    "The body is opaque (clients may encrypt it) and never logged. 413 `message_too_large` beyond OABP_MESSAGE_MAX_BYTES; 409 `thread_full` beyond OABP_MESSAGE_MAX_PER_SUBMISSION; 403 `not_a_party` for anyone else.",
  request: { params: SubmissionThreadParams, ...jsonBody(SendMessageRequest) },
  responses: {
    201: jsonResponse(Message, "The message"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "PAYLOAD_TOO_LARGE"),
  },
});

export const threadRoute = createRoute({
  ...route.get(
    "/missions/{id}/submissions/{sid}/messages",
    "The private thread of a submission, oldest first (its two parties only)",
  ),
  ...signedIn,
  request: { params: SubmissionThreadParams, query: ThreadQuery },
  responses: {
    200: jsonResponse(MessageList, "A page of the thread"),
    ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND"),
  },
});

export const inboxRoute = createRoute({
  ...route.get("/messages/inbox", "Messages addressed to you, newest first, with your unread count"),
  ...signedIn,
  request: { query: MailboxQuery },
  responses: { 200: jsonResponse(MessageList, "A page of your inbox"), ...errors("UNAUTHORIZED", "FORBIDDEN") },
});

export const sentRoute = createRoute({
  ...route.get("/messages/sent", "Messages you sent, newest first (read_at shows when the recipient marked each read)"),
  ...signedIn,
  request: { query: MailboxQuery },
  responses: { 200: jsonResponse(MessageList, "A page of your sent messages"), ...errors("UNAUTHORIZED", "FORBIDDEN") },
});

export const getMessageRoute = createRoute({
  ...route.get(
    "/messages/{mid}",
    "One message you sent or received (reading does not mark it read); 404 for anyone else",
  ),
  ...signedIn,
  request: { params: MessageIdParam },
  responses: { 200: jsonResponse(Message, "The message"), ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND") },
});

export const markReadRoute = createRoute({
  ...route.post(
    "/messages/{mid}/read",
    "Mark a message addressed to you read (again: no change, the first read_at stays)",
  ),
  ...signedIn,
  request: { params: MessageIdParam },
  responses: { 200: jsonResponse(Message, "The message, read"), ...errors("UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND") },
});
