// The public surface of the auth feature: what app.ts, the job runner and other features may
// import. Anything not listed here is internal. Written by scripts/fix-imports.mjs.
export { authRouter } from "./auth.index";
export {
  identityOfSessionHash,
  issueNonce,
  MESH_KEY_PREFIX,
  resolveIdentity,
  revokeSession,
  signInWithEthereum,
} from "./auth.service";
export { NonceResponse, SessionResponse, SiweRequest } from "./auth.routes";
