import { z } from "zod";
import { depthPolicy, hexAddress, int, jsonOf, privateKey, type Setting } from "./env.settings.schemas";

/** The base rail: RPC, escrow, resolver and relayer keys, finality, withdrawals, ERC-8004. One part of the settings table; src/env.settings.ts joins the parts, in this order, as SETTINGS. */
export const CHAIN_SETTINGS = {
  /** Base JSON-RPC endpoint: oracle reads, smart-account signatures and (with the settings below) the base rail. */
  OABP_RPC_URL: {
    key: "rpcUrl",
    schema: z.string().url().optional(),
    shown: "unset",
    doc:
      "Base RPC; when set, SIWE verifies smart-contract wallets (ERC-1271/6492) too, and oracle " +
      "missions read their oracle through it (unset: oracles never answer)",
  },
  /** The chain the base rail settles on: 8453 Base, 84532 Base Sepolia, or a local anvil's id. */
  OABP_CHAIN_ID: {
    ...int(1, 2 ** 32, 8453),
    doc: "the chain of the base rail: 8453 Base, 84532 Base Sepolia (USDC preset for both), or a local " + "anvil's id",
  },
  /** MissionEscrow contract (contracts/MissionEscrow.sol) on OABP_CHAIN_ID. */
  OABP_ESCROW_ADDRESS: {
    schema: hexAddress.optional(),
    shown: "unset",
    doc: "the MissionEscrow contract; with `OABP_RPC_URL` and a resolver key it turns the base rail on",
  },
  /** The configured escrow's MissionEscrow version (how its payouts are called). */
  OABP_ESCROW_VERSION: {
    schema: z.enum(["2", "3", "4"]).default("4"),
    shown: "`4`",
    doc:
      "MissionEscrow version of `OABP_ESCROW_ADDRESS` (`2`: paid with v2's `release`/`refund`; `3`: " +
      "v3's unbound release signature); a retired " +
      "contract names its own in `OABP_ESCROW_RETIRED`",
  },
  /** Older escrow contracts that still hold slots (docs/base-rail.md "Migrating to a new escrow"). */
  OABP_ESCROW_RETIRED: {
    schema: jsonOf(
      z.array(
        z.object({
          address: hexAddress.transform((a) => a.toLowerCase()),
          start_block: z.number().int().min(0),
          version: z.enum(["2", "3", "4"]),
        }),
      ),
    ).default([]),
    shown: "`[]`",
    doc:
      "JSON array `[{address, start_block, version}]`: retired MissionEscrow contracts that still hold " +
      "slots; their deposits, payouts, exits and balances are followed until empty, new missions use " +
      "`OABP_ESCROW_ADDRESS`",
  },
  /** The resolver's private key (RESOLVER_ROLE on the escrow); or OABP_RESOLVER_KEY_FILE. Never logged. */
  OABP_RESOLVER_KEY: {
    schema: privateKey.optional(),
    shown: "unset",
    doc: "the resolver's private key (0x + 64 hex; holds `RESOLVER_ROLE`), inline; never logged or " + "echoed",
  },
  OABP_RESOLVER_KEY_FILE: {
    schema: z.string().min(1).optional(),
    shown: "unset",
    doc:
      "a file holding the resolver's private key, instead of `OABP_RESOLVER_KEY` (never both); its " +
      "content is never logged or echoed",
  },
  /**
   * The resolver's address, for a process that holds no key (the public API when settlement runs
   * in `npm run worker`): it watches deposits and serves escrow state, but never signs.
   */
  OABP_RESOLVER_ADDRESS: {
    schema: hexAddress.optional(),
    shown: "unset",
    doc:
      "instead of the key: the resolver's address, for an API process that holds no key while `npm " +
      "run worker` settles ([docs/base-rail.md](base-rail.md))",
  },
  /**
   * A remote signer holding the resolver key (JSON-RPC `eth_signTransaction`: web3signer, Clef, a
   * KMS/HSM-backed signer): with OABP_RESOLVER_ADDRESS, the worker signs through it and holds no key.
   */
  OABP_RESOLVER_SIGNER_URL: {
    schema: z.string().url().optional(),
    shown: "unset",
    doc:
      "a remote signer (JSON-RPC `eth_signTransaction`) holding the resolver key, with " +
      "`OABP_RESOLVER_ADDRESS` and no key: the worker signs through it ([docs/base-rail.md](base-rail.md))",
  },
  /**
   * The relayer's private key (docs/payments.md): a hot key with gas money only. With it, x402
   * deposits and fees are settled by this server and funding authorizations are relayed.
   */
  OABP_RELAYER_KEY: {
    schema: privateKey.optional(),
    shown: "unset",
    doc:
      "the relayer's private key (0x + 64 hex; gas only, never tokens): turns on x402 deposits and fees " +
      "and the relay of funding authorizations ([docs/payments.md](payments.md)); never logged or echoed",
  },
  /** The treasury the escrow pays fees to (used by `npm run escrow:deploy`; checked against the contract at start). */
  OABP_TREASURY_ADDRESS: {
    schema: hexAddress.optional(),
    shown: "unset",
    doc: "treasury for `npm run escrow:deploy` (the contract holds the one in force)",
  },
  /** A deposit opens its mission, and a payout counts as confirmed, at this depth. */
  OABP_CONFIRMATIONS: {
    schema: depthPolicy("safe").default({ kind: "tag", tag: "safe" }),
    shown: "`safe`",
    doc:
      "depth at which a deposit opens its mission and a payout counts as confirmed: `safe` (at or " +
      "below the chain's safe block) or a number of blocks",
  },
  /** Deposits and payouts are watched for reorgs until this depth; then they are final. */
  OABP_FINALITY: {
    schema: depthPolicy("finalized").default({ kind: "tag", tag: "finalized" }),
    shown: "`finalized`",
    doc:
      "depth after which deposits and payouts are no longer watched for reorgs: `finalized` or a " + "number of blocks",
  },
  /** First block the escrow watcher scans for Funded logs (the deployment block); unset: the head at first start. */
  OABP_ESCROW_START_BLOCK: {
    schema: z.coerce.number().int().min(0).optional(),
    shown: "head at first start",
    doc: "first block the escrow watcher scans for `Funded` logs (the deployment block)",
  },
  /** docs/withdrawals.md "Caps": above either, a withdrawal waits for the operator's approval. */
  OABP_WITHDRAWAL_AGENT_CAP: {
    key: "withdrawalAgentCap",
    ...int(0, 1_000_000_000, 100),
    doc: "whole units of an asset one agent may withdraw per 24 h without the operator's approval (0: every withdrawal waits)",
  },
  OABP_WITHDRAWAL_DAILY_CAP: {
    key: "withdrawalDailyCap",
    ...int(0, 1_000_000_000, 1_000),
    doc: "whole units of an asset all agents together may withdraw per 24 h without the operator's approval",
  },
  /** docs/erc-8004.md "Turning it on": the three together turn feedback backed by payment on. */
  OABP_ERC8004_IDENTITY_REGISTRY: {
    schema: hexAddress.optional(),
    shown: "unset",
    doc: "the ERC-8004 identity registry on the base rail's chain the server registers itself in ([docs/erc-8004.md](erc-8004.md))",
  },
  OABP_ERC8004_REPUTATION_REGISTRY: {
    schema: hexAddress.optional(),
    shown: "unset",
    doc: "the ERC-8004 reputation registry the worker writes feedback backed by payment to",
  },
  OABP_ERC8004_REPORTER_KEY: {
    schema: privateKey.optional(),
    shown: "unset",
    doc:
      "the key that owns the server's ERC-8004 identity and signs its feedback (0x + 64 hex; needs gas, " +
      "not the resolver key); never logged or echoed",
  },
  /** The escrow watcher polls the chain at most this often (idle load: ≤ 4 requests per poll). */
  OABP_CHAIN_POLL_MS: {
    ...int(100, 600_000, 4_000),
    doc: "the base rail polls the chain at most this often (idle load ≤ 4 requests per poll)",
  },
} as const satisfies Record<string, Setting>;
