// Flag lists the parser (run.ts) needs before any command module is loaded: run.ts imports the
// commands lazily, so these live apart from missions.ts (which re-exports LIST_QUERY_FLAGS).

/** `missions list` and `watch` send these as list query parameters (- → _); run.ts declares them to parseArgs. */
export const LIST_QUERY_FLAGS = [
  "status",
  "tag",
  "q",
  "creator",
  "asset",
  "verification-type",
  "reward-min",
  "reward-max",
  "deadline-after",
  "deadline-before",
  "cursor",
];
