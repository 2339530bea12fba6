export * from "./agents";
export * from "./auth";
export * from "./ledger";
export * from "./missions";
export * from "./submissions";
export * from "./votes";
export * from "./commitments";
