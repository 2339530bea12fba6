import type { Address, Hex } from "viem";

// The reference model of contract v3 and v4 (`cfg.v4`) the invariant suite (test/helpers/escrow-fuzz.ts) checks the
// chain against. Every rule is written from docs/base-rail.md "Trust model" and the contract spec,
// not from the contract's code: `allowed*` says whether a call may succeed, `apply*` what it must do.
// A success the model does not allow is a violation; so is any balance, credit or held total that
// differs from the model after a step (which is how "nobody is paid more than owed" is checked).

export type A = Address; // always lower-case in the model
export interface Slot {
  amount: bigint;
  refundAfter: bigint;
  fundedAt: bigint;
  /** v4: before it the slot cannot be proposed (0: none). */
  signedOnlyUntil: bigint;
  /** v4: the slot instance (count of fundings of this key and funder). */
  nonce: bigint;
}
export interface Terms {
  recipients: A[];
  amounts: bigint[];
  fee: bigint;
}
const termsId = (t: Terms) => `${t.recipients.join(",")}|${t.amounts.join(",")}|${t.fee}`;
const sk = (key: Hex, funder: A) => `${key}:${funder}`;

export interface ModelConfig {
  escrow: A;
  treasury: A;
  admin: A;
  resolver: A;
  guardian: A;
  feeCapBps: bigint;
  adminDelay: bigint;
  releaseDelay: bigint;
  capPeriod: bigint;
  cap: bigint;
  /** Contract v4's rules (docs/base-rail.md "Trust model (contract v4)"). */
  v4: boolean;
}

/** v4: the rolling cap's buckets per capPeriod. */
export const CAP_BUCKETS = 4n;

/** One funding call as the model judges and applies it: `permitOk`, a valid permit came with it; `authorized`, an EIP-3009 authorization paid it (no allowance used). */
interface FundCall {
  funder: A;
  key: Hex;
  amount: bigint;
  spam: bigint;
  refundAfter: bigint;
  permitOk: boolean;
  signedOnlyUntil?: bigint;
  authorized?: boolean;
}

export class EscrowModel {
  time = 0n;
  slots = new Map<string, Slot>();
  released = new Set<Hex>();
  proposals = new Map<string, { terms: string; executableAt: bigint; proposedAt: bigint; epoch: bigint }>();
  /** v4: fundings per (key, funder), the resolver epoch, the cap's buckets, spent EIP-3009 nonces. */
  fundings = new Map<string, bigint>();
  epoch = 0n;
  buckets = new Map<bigint, bigint>();
  authUsed = new Set<string>();
  credits = new Map<A, bigint>();
  bal = new Map<A, bigint>();
  allowance = new Map<A, bigint>();
  permitNonce = new Map<A, bigint>();
  blacklisted = new Set<A>();
  surplus = 0n;
  paused = false;
  capWindow = -1n;
  capUsed = 0n;
  resolvers = new Set<A>();
  guardians = new Set<A>();
  admin: A;
  pendingResolver: { who: A; at: bigint; since: bigint } | null = null;
  pendingGuardian: { who: A; at: bigint; since: bigint } | null = null;
  adminTransfer: { to: A; schedule: bigint; since: bigint } | null = null;

  constructor(readonly cfg: ModelConfig) {
    this.admin = cfg.admin;
    this.resolvers.add(cfg.resolver);
    this.guardians.add(cfg.guardian);
  }

  get = (m: Map<A, bigint>, a: A) => m.get(a) ?? 0n;
  add = (m: Map<A, bigint>, a: A, v: bigint) => m.set(a, this.get(m, a) + v);
  slot = (key: Hex, funder: A) => this.slots.get(sk(key, funder));
  proposal = (key: Hex, funder: A) => this.proposals.get(sk(key, funder));
  /** A proposal that can still execute (v4: of the current resolver epoch). */
  liveProposal = (key: Hex, funder: A) => {
    const p = this.proposal(key, funder);
    return p && (!this.cfg.v4 || p.epoch === this.epoch) ? p : undefined;
  };

  /** Σ live slots + Σ credits: what the contract owes. */
  held(): bigint {
    let h = 0n;
    for (const s of this.slots.values()) h += s.amount;
    for (const c of this.credits.values()) h += c;
    return h;
  }

  /** Guarded push: a blacklisted recipient is credited instead. */
  private pay(to: A, amount: bigint) {
    if (amount === 0n) return;
    if (this.blacklisted.has(to)) this.add(this.credits, to, amount);
    else {
      this.add(this.bal, to, amount);
      this.add(this.bal, this.cfg.escrow, -amount);
    }
  }

  private take(key: Hex, funder: A): Slot {
    const s = this.slots.get(sk(key, funder))!;
    this.slots.delete(sk(key, funder));
    this.proposals.delete(sk(key, funder));
    return s;
  }

  // ── Funding ─────────────────────────────────────────────────────────────────────────────

  allowedFund(call: FundCall): boolean {
    const { funder, key, amount, spam, refundAfter, permitOk, signedOnlyUntil = 0n, authorized = false } = call;
    const allowance = permitOk || authorized ? amount + spam : this.get(this.allowance, funder);
    if (this.cfg.v4 && (signedOnlyUntil > refundAfter || this.governancePendingSince() !== 0n)) return false;
    return (
      amount > 0n &&
      refundAfter > this.time &&
      refundAfter <= this.time + 2n * 365n * 86_400n &&
      !this.released.has(key) &&
      !this.slot(key, funder) &&
      !this.blacklisted.has(funder) &&
      allowance >= amount + spam &&
      this.get(this.bal, funder) >= amount + spam
    );
  }

  applyFund(call: FundCall) {
    const { funder, key, amount, spam, refundAfter, permitOk, signedOnlyUntil = 0n, authorized = false } = call;
    if (permitOk) {
      this.allowance.set(funder, amount + spam);
      this.add(this.permitNonce, funder, 1n);
    }
    if (!authorized) this.add(this.allowance, funder, -(amount + spam));
    const nonce = (this.fundings.get(sk(key, funder)) ?? 0n) + 1n;
    this.fundings.set(sk(key, funder), nonce);
    this.slots.set(sk(key, funder), { amount, refundAfter, fundedAt: this.time, signedOnlyUntil, nonce });
    this.add(this.bal, funder, -(amount + spam));
    this.add(this.bal, this.cfg.escrow, amount + spam);
    this.pay(this.cfg.treasury, spam);
  }

  // ── Releases ────────────────────────────────────────────────────────────────────────────

  /** The checks every release makes (funded, not released, recipients, deposit, fee cap). */
  validRelease(key: Hex, funder: A, t: Terms): boolean {
    const s = this.slot(key, funder);
    if (!s || this.released.has(key)) return false;
    const n = t.recipients.length;
    if (n === 0 || n !== t.amounts.length || n > 64) return false;
    const paid = t.amounts.reduce((x, y) => x + y, 0n);
    const total = paid + t.fee;
    return total <= s.amount && t.fee <= (total * this.cfg.feeCapBps) / 10_000n;
  }

  /** `signed`: v4's bound fields as signed (the slot instance, the token, the deadline). */
  allowedReleaseSigned(
    caller: A,
    key: Hex,
    funder: A,
    t: Terms,
    signedByFunder: boolean,
    signed?: { nonce: bigint; rightToken: boolean; deadline: bigint },
  ): boolean {
    if (!(this.resolvers.has(caller) && !this.paused && signedByFunder && this.validRelease(key, funder, t)))
      return false;
    if (!this.cfg.v4 || !signed) return true;
    return signed.nonce === this.slot(key, funder)!.nonce && signed.rightToken && this.time <= signed.deadline;
  }

  applyRelease(key: Hex, funder: A, t: Terms) {
    const s = this.take(key, funder);
    this.released.add(key);
    const paid = t.amounts.reduce((x, y) => x + y, 0n);
    t.recipients.forEach((r, i) => this.pay(r, t.amounts[i]!));
    this.pay(this.cfg.treasury, t.fee);
    this.pay(funder, s.amount - paid - t.fee);
  }

  allowedPropose(caller: A, key: Hex, funder: A, t: Terms): boolean {
    const ok =
      this.resolvers.has(caller) &&
      !this.paused &&
      !this.liveProposal(key, funder) &&
      this.validRelease(key, funder, t);
    return ok && (!this.cfg.v4 || this.time >= this.slot(key, funder)!.signedOnlyUntil);
  }

  applyPropose(key: Hex, funder: A, t: Terms) {
    this.proposals.set(sk(key, funder), {
      terms: termsId(t),
      executableAt: this.time + this.cfg.releaseDelay,
      proposedAt: this.time,
      epoch: this.epoch,
    });
  }

  /** v3: a fixed window; v4: the current bucket and the CAP_BUCKETS before it. */
  capAvailable(): bigint {
    let used: bigint;
    if (this.cfg.v4) {
      const current = this.time / (this.cfg.capPeriod / CAP_BUCKETS);
      used = 0n;
      for (const [b, u] of this.buckets) if (b + CAP_BUCKETS >= current) used += u;
    } else used = this.capWindow === this.time / this.cfg.capPeriod ? this.capUsed : 0n;
    return this.cfg.cap > used ? this.cfg.cap - used : 0n;
  }

  allowedExecute(key: Hex, funder: A, t: Terms): boolean {
    const p = this.liveProposal(key, funder);
    if (this.paused || !p || p.terms !== termsId(t) || this.time < p.executableAt) return false;
    if (!this.validRelease(key, funder, t)) return false;
    return t.amounts.reduce((x, y) => x + y, 0n) + t.fee <= this.capAvailable();
  }

  applyExecute(key: Hex, funder: A, t: Terms) {
    const total = t.amounts.reduce((x, y) => x + y, 0n) + t.fee;
    if (this.cfg.v4) {
      const b = this.time / (this.cfg.capPeriod / CAP_BUCKETS);
      this.buckets.set(b, (this.buckets.get(b) ?? 0n) + total);
      return this.applyRelease(key, funder, t);
    }
    const w = this.time / this.cfg.capPeriod;
    if (this.capWindow !== w) {
      this.capWindow = w;
      this.capUsed = 0n;
    }
    this.capUsed += total;
    this.applyRelease(key, funder, t);
  }

  // ── Refunds and exits ───────────────────────────────────────────────────────────────────

  applyRefundTo(key: Hex, funder: A) {
    const s = this.take(key, funder);
    this.pay(funder, s.amount);
  }

  /** The latest proposal time among pending governance changes, 0 when none. */
  governancePendingSince(): bigint {
    let since = 0n;
    for (const p of [this.pendingResolver, this.pendingGuardian, this.adminTransfer]) {
      if (p && p.since > since) since = p.since;
    }
    return since;
  }

  allowedSelfRefund(caller: A, key: Hex): boolean {
    const s = this.slot(key, caller);
    if (!s) return false;
    if (this.time >= s.refundAfter) return true;
    const since = this.governancePendingSince();
    if (since === 0n || s.fundedAt > since) return false;
    // v4: a live proposal older than the change keeps the slot for its winner.
    const p = this.liveProposal(key, caller);
    return !(this.cfg.v4 && p && p.proposedAt <= since);
  }

  allowedWithdraw(caller: A): boolean {
    return this.get(this.credits, caller) > 0n && !this.blacklisted.has(caller);
  }

  applyWithdraw(caller: A) {
    const c = this.get(this.credits, caller);
    this.credits.delete(caller);
    this.add(this.bal, caller, c);
    this.add(this.bal, this.cfg.escrow, -c);
  }

  allowedSweep(caller: A, to: A): boolean {
    return caller === this.admin && this.surplus > 0n && !this.blacklisted.has(to);
  }

  applySweep(to: A) {
    this.add(this.bal, to, this.surplus);
    this.add(this.bal, this.cfg.escrow, -this.surplus);
    this.surplus = 0n;
  }

  // ── Governance ──────────────────────────────────────────────────────────────────────────

  /** OZ AccessControlDefaultAdminRules: the pending admin accepts strictly after the schedule. */
  allowedAcceptAdmin(caller: A): boolean {
    return !!this.adminTransfer && this.adminTransfer.to === caller && this.time > this.adminTransfer.schedule;
  }

  applyAcceptAdmin() {
    this.admin = this.adminTransfer!.to;
    this.adminTransfer = null;
    this.pendingResolver = null; // a new admin takes over with no proposal of the old one pending
    this.pendingGuardian = null;
  }
}
