import { parseEventLogs, type Log } from "viem";
import { missionEscrowAbi } from "./abi/mission-escrow";

// What left an escrow slot, read from the logs alone (docs/custody.md "Judging movements"):
// a `Released` or `Refunded` log and, after it in the same transaction, the `Paid` / `Credited`
// logs of the same key — the contract pays the recipients in order, then the fee to the treasury,
// then what is left back to the funder (contracts/MissionEscrow.sol `_release`, `_pay` skips 0).
// A release is judged by its whole plan (recipients, amounts, fee, token), never by key and
// funder alone. Pure: the server, the worker and the guardian watch share it.

export interface SlotMovement {
  contract: string;
  kind: "release" | "refund";
  missionKey: string;
  funder: string;
  token: string;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
  /** release: Σ recipients; refund: the slot's amount. */
  paid: bigint;
  fee: bigint;
  returned: bigint;
  /** Paid / Credited logs of this key after the movement's log, in order (recipients, treasury, funder). */
  payees: { to: string; amount: bigint }[];
}

const lower = (x: string) => x.toLowerCase();

/** Every Released / Refunded of `logs` (any order, any transactions) with its payees; contracts in `only` when given. */
export function movementsOf(logs: Log[], only?: Set<string>): SlotMovement[] {
  const parsed = parseEventLogs({
    abi: missionEscrowAbi,
    logs: only ? logs.filter((l) => only.has(lower(l.address))) : logs,
    eventName: ["Released", "Refunded", "Paid", "Credited"],
    strict: true,
  }).filter((l) => l.transactionHash !== null && l.logIndex !== null && l.blockNumber !== null && l.blockHash !== null);
  const out: SlotMovement[] = [];
  for (const l of parsed) {
    if (l.eventName !== "Released" && l.eventName !== "Refunded") continue;
    const base = {
      contract: lower(l.address),
      missionKey: lower(l.args.missionKey),
      funder: lower(l.args.funder),
      token: lower(l.args.token),
      txHash: lower(l.transactionHash!),
      logIndex: l.logIndex!,
      blockNumber: Number(l.blockNumber),
      blockHash: lower(l.blockHash!),
    };
    const payees: SlotMovement["payees"] = [];
    for (const x of parsed) {
      if (x.transactionHash !== l.transactionHash || x.logIndex! <= l.logIndex! || lower(x.address) !== base.contract)
        continue;
      if (x.eventName === "Released" || x.eventName === "Refunded") {
        if (lower(x.args.missionKey) === base.missionKey) break; // the next movement of this key
        continue;
      }
      if (lower(x.args.missionKey) === base.missionKey) payees.push({ to: lower(x.args.to), amount: x.args.amount });
    }
    if (l.eventName === "Released")
      out.push({ ...base, kind: "release", paid: l.args.paid, fee: l.args.fee, returned: l.args.returned, payees });
    else out.push({ ...base, kind: "refund", paid: l.args.amount, fee: 0n, returned: 0n, payees });
  }
  return out;
}

/**
 * Did this release pay exactly `plan` (recipients and amounts in order, fee, token)? The payees
 * after the recipients are the treasury's fee and the funder's change; only their amounts are
 * compared (the treasury may change, the change goes to the slot's own funder by construction).
 */
export function releasePaysPlan(
  m: SlotMovement,
  plan: { token: string; recipients: { address: string; amount: string }[]; fee: string },
): boolean {
  if (m.kind !== "release" || lower(plan.token) !== m.token || BigInt(plan.fee) !== m.fee) return false;
  const wanted = plan.recipients.filter((r) => BigInt(r.amount) > 0n);
  if (m.paid !== wanted.reduce((a, r) => a + BigInt(r.amount), 0n)) return false;
  if (m.payees.length < wanted.length) return false;
  return wanted.every((r, i) => {
    const payee = m.payees[i];
    return payee !== undefined && payee.to === lower(r.address) && payee.amount === BigInt(r.amount);
  });
}

/** The recipients a release paid (its payees before the fee and the change), wire form. */
export function paidRecipients(m: SlotMovement): { address: string; amount: string }[] {
  let rest = m.paid;
  const out: { address: string; amount: string }[] = [];
  for (const p of m.payees) {
    if (rest <= 0n) break;
    out.push({ address: p.to, amount: p.amount.toString() });
    rest -= p.amount;
  }
  return out;
}
