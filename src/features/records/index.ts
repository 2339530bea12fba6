// The public surface of the records feature.
export { CreatorRecord, CreatorRecordCompact, SolverRecord } from "./records.schemas";
export type { CreatorRecordCompactWire, CreatorRecordWire, SolverRecordWire } from "./records.schemas";
export {
  CREATOR_RECORD_COMPACT,
  creatorRecordCompact,
  creatorRecordToWire,
  median,
  recordOf,
  recordsOf,
  solverRecordToWire,
} from "./records.service";
export type { AgentRecordRow, CreatorRecordCompactRow } from "./records.service";
