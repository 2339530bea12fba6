// The public surface of the records feature.
export { CreatorRecord, CreatorRecordCompact, SolverRecord } from "./records.schemas";
export {
  CREATOR_RECORD_COMPACT,
  creatorRecordCompact,
  creatorRecordToWire,
  recordOf,
  solverRecordToWire,
} from "./records.service";
export type { CreatorRecordCompactRow } from "./records.service";
