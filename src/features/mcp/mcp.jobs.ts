import type { Job } from "../../jobs/job";
import { purgeEndedSessions } from "./mcp.sessions";

export const mcpJobs: Job[] = [{ name: "purge_mcp_sessions", loop: "tick", run: (deps) => purgeEndedSessions(deps) }];
