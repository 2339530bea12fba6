/**
 * Rate limits left on but out of the way, for the in-process app (test/helpers/app.ts, whose manual
 * clock never refills a bucket) and the real server process (test/helpers/process.ts) alike; the
 * rate-limit suites set real ones over these.
 */
export const HIGH_RATE_LIMITS = {
  OABP_RATE_LIMIT_WRITE_IP: "1000000/1",
  OABP_RATE_LIMIT_WRITE_AGENT: "1000000/1",
  OABP_RATE_LIMIT_WRITE_NET_AGENTS: "1000000/1",
  OABP_RATE_LIMIT_READ: "1000000/1",
  OABP_READ_INFLIGHT_PER_CALLER: "10000",
  OABP_READ_RUNNING_PER_CALLER: "10000",
  OABP_RATE_LIMIT_SESSION_IP: "1000000/1",
  OABP_MCP_PENDING_SESSIONS_PER_IP: "10000",
};
