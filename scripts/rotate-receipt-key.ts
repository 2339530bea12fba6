import { existsSync } from "node:fs";
import { loadEnv } from "../src/env";
import { keyFilePath, loadOrCreateKeyFile, rotateKeyFile } from "../src/lib/receipt-keys";

// Operator command (npm run keys:rotate): a new active receipt key in <OABP_DATA_DIR>/receipt-keys.json;
// the old key is retired (valid_until = now) but stays listed in /.well-known/oabp.json so the
// receipts it signed keep verifying. Restart the server to sign with the new key. Prints ids only.
const config = loadEnv();
if (config.receiptKeys) {
  console.error(
    "OABP_RECEIPT_KEYS is set: rotate by editing that configuration (add the new key, set valid_until on the old one and drop its private_key).",
  );
  process.exit(1);
}
const now = new Date();
if (!existsSync(keyFilePath(config.dataDir))) loadOrCreateKeyFile(config.dataDir, now);
const { active, retired } = rotateKeyFile(config.dataDir, now);
console.log(JSON.stringify({ file: keyFilePath(config.dataDir), active, retired }));
