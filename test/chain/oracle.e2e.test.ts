import type { Abi, Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import mockOracle from "../../contracts/artifacts/MockOracle.json" with { type: "json" };
import {
  bytes32ToContentHash,
  contentHashToBytes32,
  createOracleReader,
  missionKey,
  parseOracleMethod,
  type OracleReader,
} from "../../src/lib/evm";
import { startAnvil, type Anvil } from "../helpers/anvil";

const abi = mockOracle.abi as Abi;
const hashA = `sha256:${"a1".repeat(32)}`;
const hashB = `sha256:${"b2".repeat(32)}`;
const IS_VALID = "isValid(bytes32,bytes32)";
const WINNER = "winner(bytes32)";

describe("parseOracleMethod", () => {
  it("reads the two shapes from a signature or a human-readable fragment", () => {
    expect(parseOracleMethod(IS_VALID)).toEqual({ kind: "per_submission", name: "isValid", signature: IS_VALID });
    expect(parseOracleMethod(" winner(bytes32) ")).toEqual({ kind: "per_mission", name: "winner", signature: WINNER });
    expect(parseOracleMethod("function isValid(bytes32 missionKey, bytes32 contentHash) view returns (bool)")).toEqual({
      kind: "per_submission",
      name: "isValid",
      signature: IS_VALID,
    });
    expect(parseOracleMethod("function winner(bytes32) external view returns (bytes32 contentHash)")).toEqual({
      kind: "per_mission",
      name: "winner",
      signature: WINNER,
    });
    // The kind follows the shape, not the name.
    expect(parseOracleMethod("accepted(bytes32,bytes32)")).toEqual({
      kind: "per_submission",
      name: "accepted",
      signature: "accepted(bytes32,bytes32)",
    });
  });

  it.each([
    "",
    "isValid",
    "0x1234567",
    "0x123456789",
    "eth_call",
    "debug_traceCall",
    "admin_addPeer",
    "anvil_mine",
    "oracle winner",
    "oracle_",
    "_winner",
    "isValid(bytes32,bytes32,bytes32)",
    "isValid(bytes32,uint256)",
    "winner()",
    "winner(address)",
    "function isValid(bytes32,bytes32) view returns (uint256)",
    "function winner(bytes32) view returns (bool)",
    "function winner(bytes32) view returns (bytes32, bool)",
    "function winner(bytes32) payable returns (bytes32)",
    "event Winner(bytes32)",
    "isValid(bytes32,bytes32); x",
    `${"a".repeat(300)}(bytes32)`,
  ])("rejects %j", (m) => {
    expect(parseOracleMethod(m)).toBeNull();
  });
});

describe("oracle helpers", () => {
  it("missionKey is keccak256 of the id bytes", () => {
    expect(missionKey("")).toBe("0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    expect(missionKey("mis_1")).toMatch(/^0x[0-9a-f]{64}$/);
    expect(missionKey("mis_1")).not.toBe(missionKey("mis_2"));
  });

  it("contentHashToBytes32 maps sha256:<hex> to 0x<hex> and back", () => {
    expect(contentHashToBytes32(hashA)).toBe(`0x${"a1".repeat(32)}`);
    expect(contentHashToBytes32(`sha256:${"AB".repeat(32)}`)).toBe(`0x${"ab".repeat(32)}`);
    expect(bytes32ToContentHash(contentHashToBytes32(hashB))).toBe(hashB);
    expect(() => contentHashToBytes32("sha256:abc")).toThrow(TypeError);
  });
});

describe("createOracleReader against MockOracle on anvil", () => {
  let anvil: Anvil;
  let reader: OracleReader;
  let oracle: Address;
  const key = missionKey("mis_oracle_1");
  const a = contentHashToBytes32(hashA);
  const b = contentHashToBytes32(hashB);

  const write = async (functionName: "setValid" | "setWinner", args: unknown[]) => {
    const hash = await anvil.walletClient.writeContract({ address: oracle, abi, functionName, args });
    const receipt = await anvil.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
  };

  beforeAll(async () => {
    anvil = await startAnvil();
    reader = createOracleReader(anvil.rpcUrl);
    oracle = await anvil.deploy("MockOracle");
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  it("runs on chain id 8453", async () => {
    expect(anvil.chainId).toBe(8453);
    expect(await anvil.publicClient.getChainId()).toBe(8453);
  });

  it("per_submission: valid only once the oracle says so, per mission and per hash", async () => {
    expect(await reader.isValid({ address: oracle, method: IS_VALID, missionKey: key, contentHash: a })).toEqual({
      ok: true,
      valid: false,
    });
    await write("setValid", [key, a, true]);
    expect(await reader.isValid({ address: oracle, method: IS_VALID, missionKey: key, contentHash: a })).toEqual({
      ok: true,
      valid: true,
    });
    expect(await reader.isValid({ address: oracle, method: IS_VALID, missionKey: key, contentHash: b })).toEqual({
      ok: true,
      valid: false,
    });
    expect(
      await reader.isValid({ address: oracle, method: IS_VALID, missionKey: missionKey("other"), contentHash: a }),
    ).toEqual({ ok: true, valid: false });
    // A full fragment works the same; so does a checksummed or lowercase address.
    const fragment = "function isValid(bytes32,bytes32) view returns (bool)";
    expect(
      await reader.isValid({ address: oracle.toLowerCase(), method: fragment, missionKey: key, contentHash: a }),
    ).toEqual({ ok: true, valid: true });
    await write("setValid", [key, a, false]);
    expect(await reader.isValid({ address: oracle, method: IS_VALID, missionKey: key, contentHash: a })).toEqual({
      ok: true,
      valid: false,
    });
  });

  it("per_mission: null until a winner is set, then that content hash", async () => {
    const k = missionKey("mis_oracle_2");
    expect(await reader.winner({ address: oracle, method: WINNER, missionKey: k })).toEqual({
      ok: true,
      contentHash: null,
    });
    await write("setWinner", [k, b]);
    const r = await reader.winner({ address: oracle, method: WINNER, missionKey: k });
    expect(r).toEqual({ ok: true, contentHash: b });
    expect(r.ok && r.contentHash && bytes32ToContentHash(r.contentHash)).toBe(hashB);
    expect(await reader.winner({ address: oracle, method: WINNER, missionKey: key })).toEqual({
      ok: true,
      contentHash: null,
    });
  });

  it("bad or mismatched method strings are bad_method, without a call", async () => {
    expect(await reader.isValid({ address: oracle, method: "isValid", missionKey: key, contentHash: a })).toEqual({
      ok: false,
      reason: "bad_method",
    });
    expect(await reader.isValid({ address: oracle, method: WINNER, missionKey: key, contentHash: a })).toEqual({
      ok: false,
      reason: "bad_method",
    });
    expect(await reader.winner({ address: oracle, method: IS_VALID, missionKey: key })).toEqual({
      ok: false,
      reason: "bad_method",
    });
    expect(await reader.winner({ address: oracle, method: "0xdeadbeef", missionKey: key, missionId: "m" })).toEqual({
      ok: false,
      reason: "call_reverted",
    }); // a selector MockOracle lacks
    expect(await reader.isValid({ address: oracle, method: "0x6d4ce63c", missionKey: key, contentHash: a })).toEqual({
      ok: false,
      reason: "bad_method",
    }); // selectors are per_mission
  });

  it("a method the contract lacks reverts; a malformed address is bad_address", async () => {
    expect(
      await reader.isValid({ address: oracle, method: "accepted(bytes32,bytes32)", missionKey: key, contentHash: a }),
    ).toEqual({ ok: false, reason: "call_reverted" });
    expect(await reader.winner({ address: oracle, method: "decided(bytes32)", missionKey: key })).toEqual({
      ok: false,
      reason: "call_reverted",
    });
    expect(await reader.winner({ address: "0x1234", method: WINNER, missionKey: key })).toEqual({
      ok: false,
      reason: "bad_address",
    });
  });

  it("an address with no code is no_contract", async () => {
    const empty: Address = "0x000000000000000000000000000000000000dEaD";
    expect(await reader.isValid({ address: empty, method: IS_VALID, missionKey: key, contentHash: a })).toEqual({
      ok: false,
      reason: "no_contract",
    });
    expect(await reader.winner({ address: anvil.account.address, method: WINNER, missionKey: key })).toEqual({
      ok: false,
      reason: "no_contract",
    });
  });

  it("a contract answering garbage is bad_return", async () => {
    // Runtime code that returns the word 2 for any call (not an ABI bool) …
    const returnsTwo: Address = "0x00000000000000000000000000000000000b0002";
    await anvil.testClient.setCode({ address: returnsTwo, bytecode: "0x600260005260206000f3" as Hex });
    expect(await reader.isValid({ address: returnsTwo, method: IS_VALID, missionKey: key, contentHash: a })).toEqual({
      ok: false,
      reason: "bad_return",
    });
    // … and code that stops without returning anything.
    const returnsNothing: Address = "0x00000000000000000000000000000000000b0000";
    await anvil.testClient.setCode({ address: returnsNothing, bytecode: "0x00" as Hex });
    expect(await reader.winner({ address: returnsNothing, method: WINNER, missionKey: key })).toEqual({
      ok: false,
      reason: "bad_return",
    });
  });

  it("without any RPC URL the answer is no_rpc; a per-call chainRpc overrides the reader's", async () => {
    const none = createOracleReader(undefined);
    expect(await none.isValid({ address: oracle, method: IS_VALID, missionKey: key, contentHash: a })).toEqual({
      ok: false,
      reason: "no_rpc",
    });
    expect(await none.winner({ address: oracle, method: WINNER, missionKey: key })).toEqual({
      ok: false,
      reason: "no_rpc",
    });
    expect(await none.winner({ chainRpc: anvil.rpcUrl, address: oracle, method: WINNER, missionKey: key })).toEqual({
      ok: true,
      contentHash: null,
    });
  });

  it("a stopped node is rpc_error (its own anvil, so the other tests keep theirs)", async () => {
    const own = await startAnvil();
    const address = await own.deploy("MockOracle");
    const r = createOracleReader(own.rpcUrl);
    expect(await r.winner({ address, method: WINNER, missionKey: key })).toEqual({ ok: true, contentHash: null });
    await own.stop();
    // Bounded retries, not a hang: a reader that retried forever would never answer these
    // (the test timeout fails it); how long the retries take is not asserted (wall clock).
    expect(await r.isValid({ address, method: IS_VALID, missionKey: key, contentHash: a })).toEqual({
      ok: false,
      reason: "rpc_error",
    });
    expect(await r.winner({ address, method: WINNER, missionKey: key })).toEqual({ ok: false, reason: "rpc_error" });
    // The first node is untouched.
    expect(await reader.winner({ address: oracle, method: WINNER, missionKey: missionKey("mis_oracle_2") })).toEqual({
      ok: true,
      contentHash: b,
    });
  });
});
