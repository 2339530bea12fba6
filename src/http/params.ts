import { z } from "@hono/zod-openapi";

// Path parameters several features' routes share.
export const AgentIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "id", in: "path" }, example: "0xabc1230000000000000000000000000000000000" }),
});
