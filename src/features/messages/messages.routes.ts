import { routes, signedIn } from "../../http/route";
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
const route = routes("messages", signedIn);
const thread = route.one("/missions/{id}/submissions/{sid}/messages", SubmissionThreadParams);

export const sendMessageRoute = thread.post(
  "Send a private message about a submission: the creator to the submitter, or the submitter to the creator",
  {
    description:
      "The body is opaque (clients may encrypt it) and never logged. 413 `message_too_large` beyond MESSAGE_MAX_BYTES; 409 `thread_full` beyond MESSAGE_MAX_PER_SUBMISSION; 403 `not_a_party` for anyone else.",
    in: { body: SendMessageRequest },
    ok: [201, Message, "The message"],
    errors: [
      ["CONFLICT", "thread_full"],
      ["PAYLOAD_TOO_LARGE", "message_too_large"],
      ["FORBIDDEN", "not_a_party", "own_submission"],
    ],
  },
);

export const threadRoute = thread.get("The private thread of a submission, oldest first (its two parties only)", {
  in: { query: ThreadQuery },
  ok: [200, MessageList, "A page of the thread"],
  errors: [["FORBIDDEN", "not_a_party", "own_submission"]],
});

/** One of your two mailboxes: a page of its messages, newest first. */
const mailboxRoute = (box: "inbox" | "sent", summary: string, page: string) =>
  route.get(`/messages/${box}`, summary, { in: { query: MailboxQuery }, ok: [200, MessageList, page] });

export const inboxRoute = mailboxRoute(
  "inbox",
  "Messages addressed to you, newest first, with your unread count",
  "A page of your inbox",
);
export const sentRoute = mailboxRoute(
  "sent",
  "Messages you sent, newest first (read_at shows when the recipient marked each read)",
  "A page of your sent messages",
);

export const getMessageRoute = route
  .one("/messages/{mid}", MessageIdParam)
  .get("One message you sent or received (reading does not mark it read); 404 for anyone else", {
    ok: [200, Message, "The message"],
  });

export const markReadRoute = route
  .one("/messages/{mid}/read", MessageIdParam)
  .post("Mark a message addressed to you read (again: no change, the first read_at stays)", {
    ok: [200, Message, "The message, read"],
    errors: [["FORBIDDEN", "not_recipient"]],
  });
