import { sha256Hex } from "../../lib/hash";

export const GENESIS_HASH = "0".repeat(64);

export interface EntryFields {
  prevHash: string;
  id: string;
  transferId: string;
  account: string;
  asset: string;
  seq: number;
  amount: string;
  balanceAfter: string;
  kind: string;
  ref: string | null;
  createdAt: Date;
}

// The hash covers every field of the entry and the previous entry's hash, so altering any stored
// entry breaks its own hash, and rewriting that hash breaks the next link (or the account head).
export function entryHash(e: EntryFields): string {
  return sha256Hex(
    JSON.stringify([
      e.prevHash,
      e.id,
      e.transferId,
      e.account,
      e.asset,
      e.seq,
      e.amount,
      e.balanceAfter,
      e.kind,
      e.ref,
      e.createdAt.toISOString(),
    ]),
  );
}
