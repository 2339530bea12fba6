import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { verifyReceipt, type ReceiptVerification } from "../features/receipts";

// npx oabp-verify-receipt <receipt URL | file> [--manifest <file>]
// AIP-1 §6.1 with nothing but the receipt and the issuer's /.well-known/oabp.json (fetched from the
// receipt's issuer origin unless --manifest is given); signatures are checked with @noble/ed25519.

type Fetch = typeof fetch;

async function getJson(url: string, fetcher: Fetch): Promise<unknown> {
  const res = await fetcher(url, { headers: { accept: "application/json" }, redirect: "error" });
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
  return res.json();
}

export async function verifyTarget(
  target: string,
  opts: { manifestFile?: string; fetcher?: Fetch } = {},
): Promise<ReceiptVerification & { issuer?: string }> {
  const fetcher = opts.fetcher ?? fetch;
  const isUrl = /^https?:\/\//i.test(target);
  const receipt = isUrl ? await getJson(target, fetcher) : JSON.parse(readFileSync(target, "utf8"));
  const issuer =
    typeof receipt === "object" && receipt !== null && typeof (receipt as { issuer?: unknown }).issuer === "string"
      ? (receipt as { issuer: string }).issuer
      : undefined;
  let manifest: unknown;
  if (opts.manifestFile) manifest = JSON.parse(readFileSync(opts.manifestFile, "utf8"));
  else if (issuer && /^https?:\/\//i.test(issuer))
    manifest = await getJson(new URL("/.well-known/oabp.json", issuer).toString(), fetcher);
  const result = await verifyReceipt(receipt, manifest);
  // A receipt fetched from one origin that names another issuer is not that origin's receipt.
  if (isUrl && issuer && /^https?:\/\//i.test(issuer) && new URL(target).origin !== new URL(issuer).origin) {
    result.reasons.push("issuer_origin_mismatch");
    result.valid = false;
  }
  return { ...result, ...(issuer ? { issuer } : {}) };
}

async function main(argv: string[]): Promise<number> {
  const args = [...argv];
  const mi = args.indexOf("--manifest");
  const manifestFile = mi >= 0 ? args.splice(mi, 2)[1] : undefined;
  const target = args[0];
  if (!target || args.length !== 1 || (mi >= 0 && !manifestFile)) {
    console.error("usage: oabp-verify-receipt <receipt URL | file> [--manifest <oabp.json file>]");
    return 2;
  }
  try {
    const result = await verifyTarget(target, { manifestFile });
    console.log(JSON.stringify(result, null, 2));
    return result.valid ? 0 : 1;
  } catch (e) {
    console.error(`oabp-verify-receipt: ${(e as Error).message}`);
    return 2;
  }
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] && (path.resolve(process.argv[1]) === self || process.env.OABP_VERIFY_RECEIPT_BIN === "1")) {
  process.exitCode = await main(process.argv.slice(2));
}
