import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { buildApi, openApiDocument } from "../src/openapi";

// Writes openapi/openapi.json from the zod route schemas, then the client package's types from
// that file (openapi-typescript); test/openapi/openapi.test.ts and test/client/client-types.check.ts fail on drift.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const OPENAPI_FILE = path.join(ROOT, "openapi/openapi.json");
export const CLIENT_TYPES_FILE = path.join(ROOT, "packages/client/src/generated/openapi.ts");
export const renderOpenApi = () => `${JSON.stringify(openApiDocument(buildApi()), null, 2)}\n`;

const BANNER =
  "// Generated from openapi/openapi.json by `npm run openapi` (openapi-typescript). Do not edit.\n/* eslint-disable */\n";

/** The client's `paths`/`components` types for an OpenAPI document's text. */
export async function renderClientTypes(openapiText: string): Promise<string> {
  const ast = await openapiTS(JSON.parse(openapiText), { alphabetize: false });
  return BANNER + astToString(ast);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const doc = renderOpenApi();
  writeFileSync(OPENAPI_FILE, doc);
  console.log(`wrote ${OPENAPI_FILE}`);
  writeFileSync(CLIENT_TYPES_FILE, await renderClientTypes(doc));
  console.log(`wrote ${CLIENT_TYPES_FILE}`);
}
