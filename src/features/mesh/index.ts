// The public surface of the mesh feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { listSkillsOp, meshRouter } from "./mesh.index";
export { actingAgent } from "./mesh.private";
export { SkillList, SkillQuery, SkillSummary } from "./mesh.schemas";
export { assertSkillExists, skillsOfAgent, skillsOfAgents } from "./mesh.service";
