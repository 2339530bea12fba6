import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApi, openApiDocument } from "../src/openapi";

// Writes openapi/openapi.json from the zod route schemas; test/openapi.test.ts fails on drift.
export const OPENAPI_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../openapi/openapi.json");
export const renderOpenApi = () => `${JSON.stringify(openApiDocument(buildApi()), null, 2)}\n`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(OPENAPI_FILE, renderOpenApi());
  console.log(`wrote ${OPENAPI_FILE}`);
}
