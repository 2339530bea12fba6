#!/usr/bin/env node
// Runs the TypeScript verifier through tsx (a dependency), so no build step is needed.
import { register } from "tsx/esm/api";

register();
process.env.OABP_VERIFY_RECEIPT_BIN = "1";
await import("../src/cli/verify-receipt.ts");
