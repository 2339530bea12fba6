import { z } from "@hono/zod-openapi";
import { str, bool } from "../../http/wire";

export const Heartbeat = z
  .object({
    agent_id: z.string(),
    status: z.enum(["online", "offline"]),
    online: bool("Seen within the availability window (180 s)"),
    last_seen_at: z.string(),
    online_until: str("last_seen_at + availability window: send the next heartbeat before this"),
    availability_window_seconds: z.number().int(),
  })
  .openapi("Heartbeat");
export type HeartbeatWire = z.infer<typeof Heartbeat>;
