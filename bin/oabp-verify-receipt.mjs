#!/usr/bin/env node
// Runs the compiled verifier (dist/verify-receipt.js, scripts/build.mjs) when the build is current,
// else the TypeScript source through tsx (a development dependency).
import { existsSync } from "node:fs";
import { staleReason } from "../scripts/build.mjs";

process.env.OABP_VERIFY_RECEIPT_BIN = "1";
const built = new URL("../dist/verify-receipt.js", import.meta.url);
if (existsSync(built) && staleReason() === null) await import(built.href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/verify-receipt.ts");
}
