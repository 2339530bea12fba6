// Invocations in flight through the hub, in this process (docs/neighbours.md "Agent Mesh"): a cap
// per caller, per provider and in total, and a reserve — the last `reserve` free slots go only to
// an invocation whose caller and provider both have nothing in flight, so one busy caller or one
// slow provider (a tarpit holding every call to its timeout) cannot take the whole hub.

export interface SlotLimits {
  total: number;
  perCaller: number;
  perProvider: number;
  reserve: number;
}

type SlotRefusal = "caller_busy" | "provider_busy" | "hub_busy";

export interface InvocationSlots {
  tryAcquire(caller: string, provider: string): { release: () => void } | { refused: SlotRefusal };
  held(): number;
}

export function createInvocationSlots(limits: SlotLimits): InvocationSlots {
  const callers = new Map<string, number>();
  const providers = new Map<string, number>();
  let inUse = 0;
  const dec = (m: Map<string, number>, k: string) => {
    const n = (m.get(k) ?? 1) - 1;
    if (n <= 0) m.delete(k);
    else m.set(k, n);
  };
  return {
    tryAcquire(caller, provider) {
      const c = callers.get(caller) ?? 0;
      const p = providers.get(provider) ?? 0;
      if (c >= limits.perCaller) return { refused: "caller_busy" };
      if (p >= limits.perProvider) return { refused: "provider_busy" };
      const free = limits.total - inUse;
      if (free <= 0) return { refused: "hub_busy" };
      if (free <= limits.reserve && (c > 0 || p > 0)) return { refused: c > 0 ? "caller_busy" : "provider_busy" };
      callers.set(caller, c + 1);
      providers.set(provider, p + 1);
      inUse++;
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          dec(callers, caller);
          dec(providers, provider);
          inUse--;
        },
      };
    },
    held: () => inUse,
  };
}
