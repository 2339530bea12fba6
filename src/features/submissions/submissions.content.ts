import { createHash } from "node:crypto";
import { AppError } from "../../lib/errors";
import { normalizeSha256, sha256Hex } from "../../lib/hash";
import { ARWEAVE_TX_ID } from "../../lib/safe-fetch";
import type { CreateSubmissionInput } from "./submissions.schemas";

const SCHEMES = ["https:", "http:", "ipfs:", "ar:", "data:"];

/** Strict base64 (standard or url alphabet, padding at the end only): chunks decode as the whole. */
const STRICT_BASE64 = /[A-Za-z0-9+/_-]*={0,2}$/y;
/** Characters decoded per step when hashing a base64 payload: a multiple of 4 (whole groups). */
const HASH_CHUNK = 64 * 1024;

/**
 * The sha256 of a data: URI's bytes, or null when it is not a valid data: URI. A strict base64
 * payload (every deliverable the client libraries send) is decoded and hashed a chunk at a time
 * (docs/abuse.md "In-flight request bytes"): no copy of the payload and no buffer of all its bytes
 * is made, only HASH_CHUNK at a time. Anything else is decoded whole, as before (it is bounded by
 * the body limit either way).
 */
function dataUriHash(uri: string): string | null {
  const comma = uri.indexOf(",");
  if (comma < 0) return null;
  const meta = uri.slice(0, comma);
  if (!/^data:[^,]*$/.test(meta)) return null;
  const hash = createHash("sha256");
  try {
    if (!meta.endsWith(";base64")) {
      hash.update(Buffer.from(decodeURIComponent(uri.slice(comma + 1)), "utf8"));
    } else if (((STRICT_BASE64.lastIndex = comma + 1), STRICT_BASE64.test(uri))) {
      for (let at = comma + 1; at < uri.length; at += HASH_CHUNK)
        hash.update(Buffer.from(uri.slice(at, Math.min(uri.length, at + HASH_CHUNK)), "base64"));
    } else {
      hash.update(Buffer.from(uri.slice(comma + 1), "base64"));
    }
  } catch {
    return null;
  }
  return `sha256:${hash.digest("hex")}`;
}

/**
 * Normalises the deliverable of a submission (AIP-1 §3): inline `content` becomes a data: URI
 * with its derived hash; `content_hash` is stored as sha256:<hex>; a data: URI is checked against
 * its hash at once (no fetch needed). Remote URIs are fetched and checked by the verifier.
 */
export function normaliseContent(input: CreateSubmissionInput): { contentUri: string; contentHash: string } {
  const given = input.content_hash === undefined ? undefined : normalizeSha256(input.content_hash);
  if (input.content_hash !== undefined && !given) {
    throw new AppError("INVALID_PARAMETER", "content_hash must be a sha256 hex digest (0x…, bare hex or sha256:…)", {
      field: "content_hash",
    });
  }
  if (input.content !== undefined) {
    if (input.content_uri !== undefined)
      throw new AppError("INVALID_PARAMETER", "send either content or content_uri, not both", { field: "content" });
    const bytes = Buffer.from(input.content, "utf8");
    const hash = `sha256:${sha256Hex(bytes)}`;
    if (given && given !== hash) throw mismatch(given, hash);
    return { contentUri: `data:text/plain;charset=utf-8;base64,${bytes.toString("base64")}`, contentHash: hash };
  }
  if (input.content_uri === undefined)
    throw new AppError("INVALID_PARAMETER", "content_uri (with content_hash) or content is required", {
      field: "content_uri",
    });
  return uriContent(input.content_uri, given);
}

/** A content_uri: a data: URI checked against its hash at once; a remote one needs content_hash. */
function uriContent(contentUri: string, given: string | null | undefined): { contentUri: string; contentHash: string } {
  let url: URL;
  try {
    url = new URL(contentUri);
  } catch {
    throw new AppError("INVALID_PARAMETER", "content_uri is not a valid URI", { field: "content_uri" });
  }
  if (!SCHEMES.includes(url.protocol)) {
    throw new AppError("INVALID_PARAMETER", `content_uri scheme must be one of ${SCHEMES.join(" ")}`, {
      field: "content_uri",
    });
  }
  if (url.protocol === "data:") {
    const hash = dataUriHash(contentUri);
    if (!hash)
      throw new AppError("INVALID_PARAMETER", "content_uri is not a valid data: URI", { field: "content_uri" });
    if (given && given !== hash) throw mismatch(given, hash);
    return { contentUri, contentHash: hash };
  }
  // ar:// is fetched through OABP_ARWEAVE_GATEWAY (src/lib/safe-fetch.ts): a malformed
  // transaction id could never be fetched, so it is refused now rather than failing later.
  if (url.protocol === "ar:" && !ARWEAVE_TX_ID.test(url.hostname)) {
    throw new AppError(
      "INVALID_PARAMETER",
      "an ar:// content_uri must name a 43-character base64url Arweave transaction id",
      { field: "content_uri" },
    );
  }
  if (contentUri.length > 2048)
    throw new AppError("INVALID_PARAMETER", "content_uri longer than 2048 characters", { field: "content_uri" });
  if (!given)
    throw new AppError("INVALID_PARAMETER", "content_hash is required with a remote content_uri (AIP-1 §3)", {
      field: "content_hash",
    });
  return { contentUri, contentHash: given };
}

function mismatch(given: string, actual: string) {
  return new AppError("UNPROCESSABLE", "content_hash does not match the content", {
    reason: "content_hash_mismatch",
    content_hash: given,
    actual_hash: actual,
  });
}
