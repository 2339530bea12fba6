import { z } from "@hono/zod-openapi";
import { exampleId } from "./wire";

// Path parameters several features' routes share.

/** A path id: 1–64 characters, named `name` in the path, with an example for /openapi.json. */
export const pathId = (name: string, example?: string) =>
  z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name, in: "path" }, ...(example !== undefined && { example }) });

export const AgentIdParam = z.object({
  id: pathId("id", "0xabc1230000000000000000000000000000000000"),
});

/** A path naming one mission: /missions/{id}/… */
export const MissionIdParam = z.object({
  id: pathId("id", exampleId("mis")),
});
