// The public surface of the missions feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { listFreshness } from "./missions.cache";
export { ELIGIBILITY_REFUSALS, checkEligibility, findMissionForActor } from "./missions.eligibility";
export type { EligibilityGate } from "./missions.eligibility";
export { createMissionOp, getMissionOp, listMissionsOp, missionsRouter, voidMissionOp } from "./missions.index";
export { listMissions, listMissionsJson } from "./missions.list";
export { missionDocById } from "./missions.read";
export { createMissionOnce } from "./missions.routes";
export { CreateMissionRequest, ListMissionsQuery, Mission, MissionList } from "./missions.schemas";
export type { ListMissionsFilters, MissionWire } from "./missions.schemas";
export { voidRefusal } from "./missions.void";
export { missionToWire } from "./missions.wire";
