import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import solc from "solc";

// Compiles every contracts/*.sol with solc-js and writes contracts/artifacts/<Name>.json (checked
// in); test/chain/contracts.check.ts recompiles in memory and fails when a committed artifact drifts.
// Run `npm run contracts` after changing a contract, the solc pin or @openzeppelin/contracts.

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CONTRACTS_DIR = path.join(ROOT, "contracts");
export const ARTIFACTS_DIR = path.join(CONTRACTS_DIR, "artifacts");

/** package.json pins solc exactly; a different installed compiler would silently change bytecode. */
export const SOLC_VERSION = "0.8.30";
// Cancun: Base has it, anvil's default ("latest") includes it, and OZ 5 needs mcopy/tstore.
export const EVM_VERSION = "cancun";
export const OPTIMIZER = { enabled: true, runs: 200 } as const;

export interface Artifact {
  contractName: string;
  abi: unknown[];
  bytecode: `0x${string}`;
  deployedBytecode: `0x${string}`;
  compiler: { version: string; evmVersion: string; optimizer: { enabled: boolean; runs: number }; viaIR?: true };
}

interface SolcError {
  severity: "error" | "warning" | "info";
  formattedMessage: string;
}
interface SolcOutput {
  errors?: SolcError[];
  contracts?: Record<
    string,
    Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >;
}

const require = createRequire(import.meta.url);

/**
 * solc import callback: `@openzeppelin/...` (and any other package path) from node_modules,
 * relative imports inside contracts/ from disk. Nothing outside those two is readable.
 */
function findImports(unit: string): { contents: string } | { error: string } {
  try {
    if (unit.startsWith("contracts/")) {
      const file = path.resolve(ROOT, unit);
      if (!file.startsWith(CONTRACTS_DIR + path.sep)) return { error: `import escapes contracts/: ${unit}` };
      return { contents: readFileSync(file, "utf8") };
    }
    const file = require.resolve(unit, { paths: [ROOT] });
    if (!file.split(path.sep).includes("node_modules")) return { error: `not a package import: ${unit}` };
    return { contents: readFileSync(file, "utf8") };
  } catch (err) {
    return { error: `cannot read ${unit}: ${(err as Error).message}` };
  }
}

/**
 * Folders compiled: contracts/ and contracts/legacy/ (earlier escrow versions, kept deployable so
 * migrations from them can be tested; docs/base-rail.md "Migrating to a new escrow").
 */
const SOURCE_DIRS = ["", "legacy"] as const;
/**
 * The ERC-8004 reference registries (docs/erc-8004.md "Version"), compiled apart with the IR
 * pipeline: upstream's `giveFeedback` is "stack too deep" for the legacy code generator.
 */
const VIA_IR_DIRS = ["vendor/erc8004"] as const;

/** The .sol files of `dirs`, sorted so the compiler input (and so the output) never depends on readdir order. */
function contractSources(dirs: readonly string[]): Record<string, { content: string }> {
  const sources: Record<string, { content: string }> = {};
  for (const dir of dirs) {
    const abs = path.join(CONTRACTS_DIR, dir);
    for (const f of readdirSync(abs)
      .filter((n) => n.endsWith(".sol"))
      .sort()) {
      sources[path.posix.join("contracts", dir, f)] = { content: readFileSync(path.join(abs, f), "utf8") };
    }
  }
  return sources;
}

/** Compiles every contract under contracts/; throws with solc's messages on any compile error. */
export function compileContracts(): { artifacts: Artifact[]; warnings: string[] } {
  const plain = compileSources(contractSources(SOURCE_DIRS));
  const ir = compileSources(contractSources(VIA_IR_DIRS), { viaIR: true });
  const artifacts = [...plain.artifacts, ...ir.artifacts];
  const names = artifacts.map((a) => a.contractName);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new Error(`contract name ${twice} is declared twice under contracts/`);
  artifacts.sort((a, b) => a.contractName.localeCompare(b.contractName));
  return { artifacts, warnings: [...plain.warnings, ...ir.warnings] };
}

/** Compiles the given source units (name → content); imports resolve as in `findImports`. */
export function compileSources(
  sources: Record<string, { content: string }>,
  { viaIR = false }: { viaIR?: boolean } = {},
): {
  artifacts: Artifact[];
  warnings: string[];
} {
  const version = String(solc.version());
  if (!version.startsWith(`${SOLC_VERSION}+`)) {
    throw new Error(`solc ${SOLC_VERSION} expected, ${version} installed: run npm ci`);
  }
  const input = {
    language: "Solidity",
    sources,
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: OPTIMIZER,
      ...(viaIR ? { viaIR: true } : {}),
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as SolcOutput;
  const problems = output.errors ?? [];
  const errors = problems.filter((e) => e.severity === "error");
  if (errors.length) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join("\n")}`);

  const artifacts: Artifact[] = [];
  // Only contracts declared in the given units get an artifact, not the imported library code.
  for (const unit of Object.keys(sources)) {
    for (const [contractName, c] of Object.entries(output.contracts?.[unit] ?? {})) {
      if (artifacts.some((a) => a.contractName === contractName)) {
        throw new Error(`contract name ${contractName} is declared twice under contracts/`);
      }
      artifacts.push({
        contractName,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
        compiler: {
          version,
          evmVersion: EVM_VERSION,
          optimizer: { ...OPTIMIZER },
          ...(viaIR ? { viaIR: true as const } : {}),
        },
      });
    }
  }
  artifacts.sort((a, b) => a.contractName.localeCompare(b.contractName));
  return { artifacts, warnings: problems.filter((e) => e.severity === "warning").map((e) => e.formattedMessage) };
}

/** The exact bytes written for an artifact: 2-space JSON and a trailing newline. */
export const renderArtifact = (a: Artifact): string => `${JSON.stringify(a, null, 2)}\n`;
export const artifactFile = (contractName: string): string => path.join(ARTIFACTS_DIR, `${contractName}.json`);

/**
 * Contracts the server calls get a typed ABI module (`as const`, so viem infers argument and event
 * types) generated from the same compile: the ABI the server uses is never hand-edited.
 */
export const SERVER_ABIS: Record<string, string> = {
  MissionEscrow: path.join(ROOT, "src", "lib", "abi", "mission-escrow.ts"),
  // Previous escrow versions: the server still reads and pays escrows deployed before v4.
  MissionEscrowV3: path.join(ROOT, "src", "lib", "abi", "mission-escrow-v3.ts"),
  MissionEscrowV2: path.join(ROOT, "src", "lib", "abi", "mission-escrow-v2.ts"),
  // The ERC-8004 reference registries the server registers in and writes feedback to (docs/erc-8004.md).
  IdentityRegistryUpgradeable: path.join(ROOT, "src", "lib", "abi", "erc8004-identity.ts"),
  ReputationRegistryUpgradeable: path.join(ROOT, "src", "lib", "abi", "erc8004-reputation.ts"),
};

export function renderAbiModule(a: Artifact): string {
  const name = `${a.contractName[0]!.toLowerCase()}${a.contractName.slice(1)}Abi`;
  return [
    `// Generated by \`npm run contracts\` from contract ${a.contractName} (contracts/ or contracts/legacy/) — do not edit by hand.`,
    `// test/chain/contracts.check.ts fails when this file drifts from a fresh compile.`,
    `export const ${name} = ${JSON.stringify(a.abi, null, 2)} as const;`,
    "",
  ].join("\n");
}

/** Writes every artifact and removes artifacts whose contract no longer exists. */
export function writeArtifacts(artifacts: Artifact[]): string[] {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const keep = new Set(artifacts.map((a) => `${a.contractName}.json`));
  for (const f of readdirSync(ARTIFACTS_DIR)) {
    if (f.endsWith(".json") && !keep.has(f)) rmSync(path.join(ARTIFACTS_DIR, f));
  }
  for (const a of artifacts) writeFileSync(artifactFile(a.contractName), renderArtifact(a));
  const abiFiles: string[] = [];
  for (const [contractName, file] of Object.entries(SERVER_ABIS)) {
    const a = artifacts.find((x) => x.contractName === contractName);
    if (!a) throw new Error(`${contractName} is used by the server but no longer compiled`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, renderAbiModule(a));
    abiFiles.push(file);
  }
  return [...artifacts.map((a) => artifactFile(a.contractName)), ...abiFiles];
}

/**
 * The solc standard-JSON input that reproduces `unit`'s committed bytecode, with every imported
 * source inlined (what Basescan's "Solidity (Standard-Json-Input)" verification takes;
 * docs/runbooks.md "Verifying the contract"). Same settings as the build; the metadata hash only
 * covers the sources the contract uses, so this one-unit input gives the same bytecode.
 */
export function standardJsonInput(unit: string): object {
  const sources: Record<string, { content: string }> = {};
  const pending = [unit];
  while (pending.length) {
    const name = pending.pop()!;
    if (sources[name]) continue;
    const r = findImports(name);
    if ("error" in r) throw new Error(r.error);
    sources[name] = { content: r.contents };
    for (const [, imp] of r.contents.matchAll(/^\s*import\s+(?:\{[^}]*\}\s+from\s+)?"([^"]+)"/gm)) {
      pending.push(imp!.startsWith(".") ? path.posix.normalize(path.posix.join(path.posix.dirname(name), imp!)) : imp!);
    }
  }
  const sorted = Object.fromEntries(
    Object.keys(sources)
      .sort()
      .map((k) => [k, sources[k]!]),
  );
  return {
    language: "Solidity",
    sources: sorted,
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: OPTIMIZER,
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
    },
  };
}

if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) &&
  process.argv[2] === "--standard-json"
) {
  // npx tsx scripts/build-contracts.ts --standard-json contracts/MissionEscrow.sol > escrow.standard.json
  process.stdout.write(`${JSON.stringify(standardJsonInput(process.argv[3] ?? "contracts/MissionEscrow.sol"))}\n`);
} else if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const { artifacts, warnings } = compileContracts();
  for (const w of warnings) console.warn(w);
  for (const f of writeArtifacts(artifacts)) console.log(`wrote ${path.relative(ROOT, f)}`);
  console.log(`compiled ${artifacts.length} contract(s) in ${Math.round(performance.now() - started)} ms`);
}
