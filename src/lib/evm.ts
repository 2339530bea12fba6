import {
  AbiDecodingDataSizeTooSmallError,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  ExecutionRevertedError,
  InvalidBytesBooleanError,
  createPublicClient,
  encodeAbiParameters,
  http,
  isAddress,
  keccak256,
  parseAbiItem,
  parseAbiParameters,
  recoverAddress,
  recoverMessageAddress,
  toBytes,
  verifyMessage,
  type Abi,
  type AbiItem,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { normalizeSha256 } from "./hash";
import { processMetrics } from "./metrics";

// The narrow chain port (docs/style.md "Chain behind a port"): only lib/evm imports viem clients.
export interface EvmPort {
  /** EIP-191 personal_sign check; with an RPC, ERC-1271 / ERC-6492 smart accounts verify too. */
  verifyPersonalSign(address: string, message: string, signature: string): Promise<boolean>;
}

/** viem's http transport with the §7.5.1 User-Agent on every JSON-RPC request. */
const uaOptions = (ua: string | undefined) => (ua ? { fetchOptions: { headers: { "User-Agent": ua } } } : {});

export function createEvmPort(rpcUrl: string | undefined, ua?: string): EvmPort {
  const client = rpcUrl
    ? createPublicClient({ transport: http(rpcUrl, { timeout: 10_000, retryCount: 1, ...uaOptions(ua) }) })
    : undefined;
  return {
    async verifyPersonalSign(address, message, signature) {
      if (!/^0x[0-9a-fA-F]+$/.test(signature)) return false;
      if (hasHighS(signature)) return false;
      try {
        if (client)
          return await client.verifyMessage({ address: address as Hex, message, signature: signature as Hex });
        return await verifyMessage({ address: address as Hex, message, signature: signature as Hex });
      } catch {
        return false;
      }
    },
  };
}

/** secp256k1 group order n, and n / 2: an ECDSA `s` above it is the malleable twin (EIP-2). */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = SECP256K1_N / 2n;

/**
 * True for a 65-byte r‖s‖v signature whose s is in the upper half ("low-s only").
 * Every signature has a high-s twin that recovers the same address; Ethereum transactions
 * refuse it since EIP-2 and so does this server, so one signed message has exactly one valid
 * signature. Longer blobs (ERC-1271 / ERC-6492 smart-account signatures) are the contract's to judge;
 * a 64-byte EIP-2098 compact signature cannot carry a high s.
 */
function hasHighS(signature: string): boolean {
  if (signature.length !== 132) return false;
  return BigInt(`0x${signature.slice(66, 130)}`) > HALF_N;
}

/** AIP-1 §1.4: keccak256(abi.encode(string api_key, address evm_address, string issued_at)). */
export function registryAttestationHash(apiKey: string, evmAddress: string, issuedAt: string): Hex {
  return keccak256(
    encodeAbiParameters(parseAbiParameters("string, address, string"), [apiKey, evmAddress as Hex, issuedAt]),
  );
}

/**
 * Recovers the signers of an attestation hash, read both as a raw ECDSA signature over the hash
 * and as an EIP-191 personal_sign of the 32 hash bytes (both are accepted; README documents it).
 */
export async function recoverAttestationSigners(hash: Hex, signature: string): Promise<string[]> {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature) || hasHighS(signature)) return [];
  const out: string[] = [];
  for (const recover of [
    () => recoverAddress({ hash, signature: signature as Hex }),
    () => recoverMessageAddress({ message: { raw: hash }, signature: signature as Hex }),
  ]) {
    try {
      out.push((await recover()).toLowerCase());
    } catch {
      /* not a valid signature in this reading */
    }
  }
  return out;
}

// ── Oracle reader (AIP-1 §4.4 `oracle`: `oracle_contract` + `oracle_method`, "string (function
// selector or RPC method)") ─────────────────────────────────────────────────────────────────────
// A submission is named by its sha256 content hash as bytes32, a mission by keccak256(mission_id).
// Four forms of oracle_method are understood (docs/aip-1-2.md says how each is called):
//   signature, per_submission  f(bytes32 missionKey, bytes32 contentHash) returns (bool)
//   signature, per_mission     f(bytes32 missionKey) returns (bytes32 contentHash) — zero: undecided
//   selector "0x6d4ce63c"      eth_call to oracle_contract, calldata = selector ‖ missionKey; the
//                              32 returned bytes are the winning content hash (zero: undecided)
//   RPC method "oracle_winner" JSON-RPC to the configured RPC, params [{oracle_contract,
//                              mission_id, mission_key}]; result a 0x bytes32 hash or null/zero

type OracleMethodKind = "per_submission" | "per_mission";
export interface OracleMethod {
  kind: OracleMethodKind;
  signature: string;
  name: string;
  /** Selector form: the 4 bytes to call (kind is per_mission). */
  selector?: Hex;
  /** RPC-method form: the JSON-RPC method name (kind is per_mission). */
  rpcMethod?: string;
}

/** AIP-1 §4.4 "RPC method": a namespaced JSON-RPC name, e.g. oracle_winner. */
const RPC_METHOD = /^[a-z][a-z0-9]{0,31}_[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** An RPC method's namespace: `oabp` of `oabp_winner`. */
const namespaceOf = (method: string): string => method.split("_")[0] ?? "";

/**
 * Node namespaces an oracle_method may never name: the call goes to the operator's own RPC, and a
 * mission creator must not be able to make the server call eth_sendRawTransaction, admin_*,
 * miner_*, anvil_* or any other standard node method. Oracle methods live in their own namespace.
 */
const RESERVED_RPC_NAMESPACES = [
  "eth",
  "net",
  "web3",
  "debug",
  "admin",
  "miner",
  "personal",
  "txpool",
  "engine",
  "clique",
  "les",
  "parity",
  "trace",
  "anvil",
  "evm",
  "hardhat",
  "ganache",
  "erigon",
  "ots",
  "flashbots",
  "rpc",
  "wallet",
  "signer",
  "bor",
  "ethash",
  "optimism",
  "rollup",
  "opp2p",
];

/** Why an oracle_method string is refused (422 reasons at mission creation). */
export function oracleMethodProblem(method: string): "rpc_namespace_reserved" | "unsupported" | null {
  const text = method.trim();
  if (RPC_METHOD.test(text) && !text.includes("("))
    return RESERVED_RPC_NAMESPACES.includes(namespaceOf(text)) ? "rpc_namespace_reserved" : null;
  return parseOracleMethod(text) ? null : "unsupported";
}

/** Why an oracle read gave no answer (docs/style.md "Outcomes are data": reasons live here). */
export type OracleFailureReason =
  | "no_rpc" // neither the reader nor the call has an RPC URL
  | "bad_method" // oracle_method is not one of the two shapes (or used with the other verb)
  | "bad_address" // oracle_contract is not a 20-byte hex address
  | "no_contract" // nothing is deployed at the address
  | "call_reverted" // the call reverted (e.g. the contract has no such function)
  | "bad_return" // the contract answered, but not an ABI-encoded bool / bytes32
  | "rpc_error"; // transport failure, timeout or an RPC error that is not a revert
type OracleFailure = { ok: false; reason: OracleFailureReason };

export interface OracleReader {
  isValid(p: {
    chainRpc?: string;
    address: string;
    method: string;
    missionKey: Hex;
    contentHash: Hex;
  }): Promise<{ ok: true; valid: boolean } | OracleFailure>;
  /** `contentHash: null` when the oracle has not decided (returns bytes32 zero). */
  winner(p: {
    chainRpc?: string;
    address: string;
    method: string;
    missionKey: Hex;
    missionId?: string;
  }): Promise<{ ok: true; contentHash: Hex | null } | OracleFailure>;
}

const SHAPES: Record<OracleMethodKind, { inputs: number; output: "bool" | "bytes32" }> = {
  per_submission: { inputs: 2, output: "bool" },
  per_mission: { inputs: 1, output: "bytes32" },
};

/**
 * Parses `oracle_method`: a signature ("isValid(bytes32,bytes32)", "winner(bytes32)") or a
 * human-readable fragment ("function isValid(bytes32,bytes32) view returns (bool)"). Declared
 * outputs must match the shape; anything else (selectors, events, other types) is null.
 */
export function parseOracleMethod(method: string): OracleMethod | null {
  const text = method.trim();
  if (!text || text.length > 256) return null;
  if (/^0x[0-9a-fA-F]{8}$/.test(text)) {
    const selector = text.toLowerCase() as Hex;
    return { kind: "per_mission", name: selector, signature: selector, selector };
  }
  if (RPC_METHOD.test(text)) {
    if (RESERVED_RPC_NAMESPACES.includes(namespaceOf(text))) return null;
    return { kind: "per_mission", name: text, signature: text, rpcMethod: text };
  }
  let item: AbiItem;
  try {
    item = parseAbiItem(text.startsWith("function ") ? text : `function ${text}`) as AbiItem;
  } catch {
    return null;
  }
  if (item.type !== "function" || item.stateMutability === "payable") return null;
  if (!item.inputs.every((i) => i.type === "bytes32")) return null;
  const kind = (Object.keys(SHAPES) as OracleMethodKind[]).find((k) => SHAPES[k].inputs === item.inputs.length);
  if (!kind) return null;
  const outputs = item.outputs;
  if (outputs.length > 1 || (outputs.length === 1 && outputs[0]!.type !== SHAPES[kind].output)) return null;
  return { kind, name: item.name, signature: `${item.name}(${item.inputs.map(() => "bytes32").join(",")})` };
}

/** The ABI actually called: always view, always with the shape's single output. */
function oracleAbi(m: OracleMethod): Abi {
  const input = (name: string) => ({ name, type: "bytes32" });
  return [
    {
      type: "function",
      name: m.name,
      stateMutability: "view",
      inputs: m.kind === "per_submission" ? [input("missionKey"), input("contentHash")] : [input("missionKey")],
      outputs: [{ name: "", type: SHAPES[m.kind].output }],
    },
  ];
}

/** AIP-1 mission key on chain: keccak256(bytes(mission_id)). */
export const missionKey = (missionId: string): Hex => keccak256(toBytes(missionId));

/** "sha256:<hex>" (also "0x<hex>" or bare hex, as lib/hash accepts) → 0x<hex>; throws on anything else. */
export function contentHashToBytes32(h: string): Hex {
  const normalized = normalizeSha256(h);
  if (!normalized) throw new TypeError(`not a sha256 content hash: ${h.slice(0, 80)}`);
  return `0x${normalized.slice("sha256:".length)}`;
}

/** bytes32 from an oracle → the stored "sha256:<hex>" form. */
export const bytes32ToContentHash = (b: Hex): string => `sha256:${b.slice(2).toLowerCase()}`;

const ZERO_BYTES32 = `0x${"0".repeat(64)}`;

export function createOracleReader(rpcUrl: string | undefined, ua?: string): OracleReader {
  const clients = new Map<string, PublicClient>();
  const clientFor = (url: string): PublicClient => {
    let c = clients.get(url);
    if (!c) {
      // Bounded: one retry, 10 s per request — a job, not a request handler, waits on this.
      c = createPublicClient({
        transport: http(url, { timeout: 10_000, retryCount: 1, retryDelay: 200, ...uaOptions(ua) }),
      });
      clients.set(url, c);
    }
    return c;
  };

  async function read(q: OracleQuery): Promise<{ ok: true; value: unknown } | OracleFailure> {
    const url = q.chainRpc ?? rpcUrl;
    if (!url) return { ok: false, reason: "no_rpc" };
    const m = parseOracleMethod(q.method);
    if (!m || m.kind !== q.want) return { ok: false, reason: "bad_method" };
    if (!isAddress(q.address, { strict: false })) return { ok: false, reason: "bad_address" };
    const client = clientFor(url);
    try {
      return await callOracle(client, m, q);
    } catch (err) {
      const reason = await classifyReadError(err, () => client.getCode({ address: q.address as Address }));
      if (reason === "rpc_error") processMetrics.rpcError("evm"); // GET /metrics oabp_rpc_errors_total
      return { ok: false, reason };
    }
  }

  return {
    async isValid({ chainRpc, address, method, missionKey: key, contentHash }) {
      const r = await read({ chainRpc, address, method, want: "per_submission", args: [key, contentHash] });
      if (!r.ok) return r;
      return typeof r.value === "boolean" ? { ok: true, valid: r.value } : { ok: false, reason: "bad_return" };
    },
    async winner({ chainRpc, address, method, missionKey: key, missionId }) {
      const r = await read({ chainRpc, address, method, want: "per_mission", args: [key], missionId });
      if (!r.ok) return r;
      if (typeof r.value !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(r.value))
        return { ok: false, reason: "bad_return" };
      const hash = r.value.toLowerCase() as Hex;
      return { ok: true, contentHash: hash === ZERO_BYTES32 ? null : hash };
    },
  };
}

/** One oracle read: which chain (default the server's RPC), contract and method, and its arguments. */
interface OracleQuery {
  chainRpc: string | undefined;
  address: string;
  method: string;
  want: OracleMethodKind;
  /** The mission key first (and the content hash for a per-submission method). */
  args: [Hex, ...Hex[]];
  missionId?: string | undefined;
}

/** The oracle's answer in the method's form: an RPC method, a raw selector call, or an ABI function. */
async function callOracle(
  client: PublicClient,
  m: OracleMethod,
  { address, args, missionId }: OracleQuery,
): Promise<{ ok: true; value: unknown } | OracleFailure> {
  if (m.rpcMethod) {
    // RPC-method form: the operator's RPC answers a namespaced method (never a node method).
    const value = await client.request({
      method: m.rpcMethod,
      params: [{ oracle_contract: address.toLowerCase(), mission_id: missionId, mission_key: args[0] }],
    } as never);
    return { ok: true, value: value === null ? ZERO_BYTES32 : value };
  }
  if (m.selector) {
    // Selector form: raw eth_call, calldata = selector ‖ missionKey; 32 bytes back.
    const { data } = await client.call({ to: address as Address, data: `${m.selector}${args[0].slice(2)}` as Hex });
    if (!data || data === "0x") {
      const code = await client.getCode({ address: address as Address });
      return { ok: false, reason: !code || code === "0x" ? "no_contract" : "bad_return" };
    }
    return { ok: true, value: data.length === 66 ? data : "bad" };
  }
  const value = await client.readContract({
    address: address as Address,
    abi: oracleAbi(m),
    functionName: m.name,
    args,
  });
  return { ok: true, value };
}

async function classifyReadError(err: unknown, getCode: () => Promise<Hex | undefined>): Promise<OracleFailureReason> {
  if (!(err instanceof BaseError)) return "rpc_error";
  if (err.walk((e) => e instanceof ContractFunctionRevertedError || e instanceof ExecutionRevertedError))
    return "call_reverted";
  if (err.walk((e) => e instanceof ContractFunctionZeroDataError)) {
    // Empty return data: either nothing is deployed there, or the contract returned nothing.
    try {
      const code = await getCode();
      return !code || code === "0x" ? "no_contract" : "bad_return";
    } catch {
      return "rpc_error";
    }
  }
  if (err.walk((e) => e instanceof AbiDecodingDataSizeTooSmallError || e instanceof InvalidBytesBooleanError)) {
    return "bad_return";
  }
  return "rpc_error";
}
