import { createHash } from "node:crypto";

// Deliverable hashing as the server checks it (AIP-1 §3; README "commit-reveal").

export const sha256Hex = (bytes: Uint8Array | string): string => createHash("sha256").update(bytes).digest("hex");

/** `content_hash` of a deliverable: `sha256:<hex>` of its exact bytes. */
export const contentHash = (bytes: Uint8Array | string): string => `sha256:${sha256Hex(bytes)}`;

/** The commit-reveal commitment: sha256("<content sha256 hex>:<committer, lowercase>:<salt>"). */
export const commitmentOf = (content: Uint8Array | string, committer: string, salt: string): string =>
  `sha256:${sha256Hex(`${sha256Hex(content)}:${committer.toLowerCase()}:${salt}`)}`;
