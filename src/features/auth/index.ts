// The public surface of the auth feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { authRouter } from "./auth.index";
export { NonceResponse, SessionResponse, SiweRequest } from "./auth.routes";
export {
  MESH_KEY_PREFIX,
  identityOfSessionHash,
  issueNonce,
  resolveIdentity,
  revokeSession,
  signInWithEthereum,
} from "./auth.service";
