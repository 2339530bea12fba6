import { AppError } from "../../lib/errors";
import { normalizeSha256, sha256Hex } from "../../lib/hash";
import { ARWEAVE_TX_ID } from "../../lib/safe-fetch";
import type { CreateSubmissionInput } from "./submissions.schemas";

const SCHEMES = ["https:", "http:", "ipfs:", "ar:", "data:"];

function decodeDataUri(uri: string): Buffer | null {
  const m = /^data:([^,]*?)(;base64)?,(.*)$/s.exec(uri);
  if (!m) return null;
  try {
    return m[2] ? Buffer.from(m[3]!, "base64") : Buffer.from(decodeURIComponent(m[3]!), "utf8");
  } catch {
    return null;
  }
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
  let url: URL;
  try {
    url = new URL(input.content_uri);
  } catch {
    throw new AppError("INVALID_PARAMETER", "content_uri is not a valid URI", { field: "content_uri" });
  }
  if (!SCHEMES.includes(url.protocol)) {
    throw new AppError("INVALID_PARAMETER", `content_uri scheme must be one of ${SCHEMES.join(" ")}`, {
      field: "content_uri",
    });
  }
  if (url.protocol === "data:") {
    const bytes = decodeDataUri(input.content_uri);
    if (!bytes)
      throw new AppError("INVALID_PARAMETER", "content_uri is not a valid data: URI", { field: "content_uri" });
    const hash = `sha256:${sha256Hex(bytes)}`;
    if (given && given !== hash) throw mismatch(given, hash);
    return { contentUri: input.content_uri, contentHash: hash };
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
  if (input.content_uri.length > 2048)
    throw new AppError("INVALID_PARAMETER", "content_uri longer than 2048 characters", { field: "content_uri" });
  if (!given)
    throw new AppError("INVALID_PARAMETER", "content_hash is required with a remote content_uri (AIP-1 §3)", {
      field: "content_hash",
    });
  return { contentUri: input.content_uri, contentHash: given };
}

function mismatch(given: string, actual: string) {
  return new AppError("UNPROCESSABLE", "content_hash does not match the content", {
    reason: "content_hash_mismatch",
    content_hash: given,
    actual_hash: actual,
  });
}
