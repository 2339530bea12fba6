import { existsSync, readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import solc from "solc";
import {
  ARTIFACTS_DIR,
  EVM_VERSION,
  SERVER_ABIS,
  SOLC_VERSION,
  artifactFile,
  compileContracts,
  compileSources,
  renderAbiModule,
  renderArtifact,
  standardJsonInput,
  type Artifact,
} from "../../scripts/build-contracts";

// Like test/openapi/openapi.test.ts: the checked-in artifacts must be what the pinned compiler makes now.
describe("contracts/artifacts", () => {
  let artifacts: Artifact[];
  beforeAll(() => {
    artifacts = compileContracts().artifacts;
  });

  it("has exactly one artifact per contract declared in contracts/*.sol", () => {
    const committed = readdirSync(ARTIFACTS_DIR)
      .filter((f) => f.endsWith(".json"))
      .sort();
    expect(committed).toEqual(artifacts.map((a) => `${a.contractName}.json`).sort());
    expect(artifacts.map((a) => a.contractName)).toEqual(
      expect.arrayContaining(["MockOracle", "MissionEscrowV2", "MissionEscrowV3"]),
    );
  });

  it("matches a fresh compile: abi, bytecode and settings (run `npm run contracts` after a change)", () => {
    for (const a of artifacts) {
      const file = artifactFile(a.contractName);
      expect(existsSync(file), `${file} is missing`).toBe(true);
      const committed = JSON.parse(readFileSync(file, "utf8")) as Artifact;
      expect(committed.abi, `${a.contractName} abi`).toEqual(a.abi);
      expect(committed.bytecode, `${a.contractName} bytecode`).toBe(a.bytecode);
      expect(committed.deployedBytecode, `${a.contractName} deployedBytecode`).toBe(a.deployedBytecode);
      expect(committed.compiler, `${a.contractName} compiler`).toEqual(a.compiler);
      // Byte-for-byte too, so formatting stays stable and diffs stay small.
      expect(readFileSync(file, "utf8")).toBe(renderArtifact(a));
    }
  });

  it("generates the server's typed ABI modules from the same compile (never hand-edited)", () => {
    for (const [name, file] of Object.entries(SERVER_ABIS)) {
      const a = artifacts.find((x) => x.contractName === name)!;
      expect(readFileSync(file, "utf8"), `${file} drifted: run npm run contracts`).toBe(renderAbiModule(a));
    }
  });

  it("the standard-JSON input for verification (docs/runbooks.md) reproduces MissionEscrow's committed bytecode", () => {
    const input = standardJsonInput("contracts/MissionEscrow.sol") as { sources: Record<string, unknown> };
    expect(Object.keys(input.sources)).toContain("@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol");
    const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
      contracts: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>>;
    };
    const committed = artifacts.find((a) => a.contractName === "MissionEscrow")!;
    expect(`0x${out.contracts["contracts/MissionEscrow.sol"]!.MissionEscrow!.evm.deployedBytecode.object}`).toBe(
      committed.deployedBytecode,
    );
  });

  it("records the pinned compiler and an explicit evmVersion", () => {
    const mock = artifacts.find((a) => a.contractName === "MockOracle")!;
    expect(mock.compiler.version.startsWith(`${SOLC_VERSION}+`)).toBe(true);
    expect(mock.compiler.evmVersion).toBe(EVM_VERSION);
    expect(mock.bytecode).toMatch(/^0x[0-9a-f]{100,}$/);
    const names = mock.abi.map((f) => (f as { name?: string }).name);
    expect(names).toEqual(expect.arrayContaining(["isValid", "winner", "setValid", "setWinner"]));
  });

  it("resolves @openzeppelin/contracts imports from node_modules (the escrow contract needs them)", () => {
    const probe = [
      "// SPDX-License-Identifier: MIT",
      "pragma solidity ^0.8.24;",
      'import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";',
      'import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";',
      "contract Probe { using SafeERC20 for IERC20; function pull(IERC20 t, uint256 v) external { t.safeTransferFrom(msg.sender, address(this), v); } }",
    ].join("\n");
    const { artifacts: out } = compileSources({ "probe/Probe.sol": { content: probe } });
    expect(out.map((a) => a.contractName)).toEqual(["Probe"]);
    expect(out[0]!.deployedBytecode.length).toBeGreaterThan(100);
  });

  it("fails loudly on a compile error or an import it must not read", () => {
    const bad = (content: string) => () => compileSources({ "probe/Bad.sol": { content } });
    expect(bad("// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\ncontract Bad { function f( }")).toThrow(
      /solc failed/,
    );
    expect(
      bad('// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\nimport "contracts/../package.json";'),
    ).toThrow(/solc failed/);
  });
});
