// RFC 2397 `data:` URIs, decoded in memory without any network (docs/design.md "Submissions": small
// deliverables arrive inline as data: URIs). Follows the WHATWG Fetch "data: URL processor":
// the fragment is not part of the data, the body is percent-decoded to BYTES (not UTF-8 text,
// so content hashes match), and ";base64" selects forgiving-base64 on those bytes.

export type DataUriResult =
  | { ok: true; mediaType: string; body: Buffer }
  | { ok: false; reason: "invalid_data_uri" | "too_large"; detail?: string };

const DEFAULT_MEDIA_TYPE = "text/plain;charset=US-ASCII";

/** `input` is a parsed `data:` URL; `maxBytes` caps the decoded size. */
export function decodeDataUri(input: URL, maxBytes: number): DataUriResult {
  const href = input.href;
  const hashAt = input.hash === "" ? href.length : href.length - input.hash.length;
  const rest = href.slice("data:".length, hashAt);
  const comma = rest.indexOf(",");
  if (comma < 0) return { ok: false, reason: "invalid_data_uri", detail: "missing ','" };

  let mediaType = rest.slice(0, comma).trim();
  let bytes = percentDecode(rest.slice(comma + 1));
  const base64 = /;\s*base64\s*$/i.exec(mediaType);
  if (base64) {
    mediaType = mediaType.slice(0, base64.index).trim();
    const decoded = forgivingBase64(bytes.toString("latin1"));
    if (decoded === null) return { ok: false, reason: "invalid_data_uri", detail: "bad base64" };
    bytes = decoded;
  }
  if (bytes.length > maxBytes) return { ok: false, reason: "too_large" };
  if (mediaType.startsWith(";")) mediaType = `text/plain${mediaType}`;
  return { ok: true, mediaType: mediaType === "" ? DEFAULT_MEDIA_TYPE : mediaType, body: bytes };
}

const HEX = /^[0-9a-fA-F]{2}$/;

// Byte-level percent-decoding: decodeURIComponent would throw on %FF and re-encode bytes.
function percentDecode(s: string): Buffer {
  const src = Buffer.from(s, "utf8");
  const out = Buffer.alloc(src.length);
  let n = 0;
  for (let i = 0; i < src.length; i++) {
    const hex = src[i] === 0x25 ? src.toString("latin1", i + 1, i + 3) : "";
    if (HEX.test(hex)) {
      out[n++] = parseInt(hex, 16);
      i += 2;
    } else {
      out[n++] = src[i]!;
    }
  }
  return out.subarray(0, n);
}

// WHATWG Infra "forgiving-base64 decode". Buffer.from(s, "base64") silently skips bad
// characters, which would turn garbage into some bytes instead of a refusal.
function forgivingBase64(s: string): Buffer | null {
  let data = s.replace(/[\t\n\f\r ]/g, "");
  if (data.length % 4 === 0) data = data.replace(/={1,2}$/, "");
  if (data.length % 4 === 1 || !/^[A-Za-z0-9+/]*$/.test(data)) return null;
  return Buffer.from(data, "base64");
}
