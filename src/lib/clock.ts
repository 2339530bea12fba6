// Time is injected everywhere (deadlines, TTLs, ledger timestamps) so tests control it.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to — for tests. */
export class ManualClock implements Clock {
  private ms: number;
  constructor(start: Date | string = "2026-06-01T00:00:00.000Z") {
    this.ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(at: Date | string): void {
    this.ms = new Date(at).getTime();
  }
}
