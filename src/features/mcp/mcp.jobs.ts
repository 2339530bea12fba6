import type { Job } from "../../jobs/job";
import { purgeEndedSessions } from "./mcp.sessions";
import { purgeExpiredTasks } from "./mcp.tasks";

export const mcpJobs: Job[] = [
  { name: "purge_mcp_sessions", loop: "tick", run: (deps) => purgeEndedSessions(deps) },
  { name: "purge_mcp_tasks", loop: "tick", run: (deps) => purgeExpiredTasks(deps) },
];
