import { runEscrowFuzz } from "../test/helpers/escrow-fuzz";

// `npm run bench:escrow-fuzz`: the contract invariant suite at scale (bench/README.md
// "Escrow invariants"). Knobs: ESCROW_FUZZ_SEQUENCES (600), ESCROW_FUZZ_STEPS (200),
// ESCROW_FUZZ_SEED (1), ESCROW_FUZZ_VERSION (4; 3 for the legacy contract). Exits 1 on any
// violation or model disagreement.

const sequences = Number(process.env.ESCROW_FUZZ_SEQUENCES ?? 600);
const steps = Number(process.env.ESCROW_FUZZ_STEPS ?? 200);
const seed = Number(process.env.ESCROW_FUZZ_SEED ?? 1);
const version = (process.env.ESCROW_FUZZ_VERSION ?? "4") as "3" | "4";
// Chunks of 50 sequences, each on a fresh anvil, so progress shows and memory stays flat.
const CHUNK = 50;
const total = {
  sequences: 0,
  steps: 0,
  transactions: 0,
  succeeded: 0,
  violations: [] as string[],
  disagreements: [] as string[],
  maxOverpaid: 0n,
  ms: 0,
  notes: {} as Record<string, number>,
};
const ops: Record<string, { ok: number; refused: number }> = {};
for (let done = 0; done < sequences; done += CHUNK) {
  const r = await runEscrowFuzz({
    seed: seed * 1_000 + done / CHUNK,
    sequences: Math.min(CHUNK, sequences - done),
    steps,
    version,
  });
  total.sequences += r.sequences;
  total.steps += r.steps;
  total.transactions += r.transactions;
  total.succeeded += r.succeeded;
  total.violations.push(...r.violations);
  total.disagreements.push(...r.disagreements);
  if (r.maxOverpaid > total.maxOverpaid) total.maxOverpaid = r.maxOverpaid;
  total.ms += r.ms;
  for (const [k, n] of Object.entries(r.notes)) total.notes[k] = (total.notes[k] ?? 0) + n;
  for (const [op, c] of Object.entries(r.ops)) {
    const o = (ops[op] ??= { ok: 0, refused: 0 });
    o.ok += c.ok;
    o.refused += c.refused;
  }
  console.log(
    `${total.sequences}/${sequences} sequences, ${total.steps} steps, ${total.violations.length} violations, ${total.disagreements.length} disagreements (${Math.round(total.ms / 1000)} s)`,
  );
}
console.log("\nop                          ok  refused");
for (const [op, c] of Object.entries(ops).sort())
  console.log(`${op.padEnd(26)} ${String(c.ok).padStart(5)} ${String(c.refused).padStart(8)}`);
console.log(`\nstates reached: ${JSON.stringify(total.notes)}`);
console.log(
  `\ncontract v${version}: ${total.sequences} sequences, ${total.steps} steps, ${total.transactions} transactions (${total.succeeded} succeeded), ` +
    `${total.violations.length} invariant violations, ${total.disagreements.length} model disagreements, ` +
    `max overpaid ${total.maxOverpaid}, ${Math.round(total.ms / 1000)} s`,
);
for (const v of [...total.violations, ...total.disagreements].slice(0, 20)) console.log(`  ${v}`);
process.exit(total.violations.length || total.disagreements.length ? 1 : 0);
