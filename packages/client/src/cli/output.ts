// Output: JSON with --json (stable, for scripts and agents), otherwise tables and key/value lines.

export interface Out {
  json: boolean;
  tty: boolean;
  write(s: string): void;
  err(s: string): void;
}

/**
 * One spelling of content hashes in everything the CLI prints: `sha256:<hex>`, as receipts and
 * `content_hash` inputs spell it (the submission wire keeps AIP-1 §3's `0x<hex>`).
 */
const spellHash = (key: string, v: unknown): unknown =>
  key === "content_hash" && typeof v === "string" && /^0x[0-9a-fA-F]{64}$/.test(v) ? `sha256:${v.slice(2)}` : v;

const cell = (v: unknown): string => {
  if (v === null || v === undefined) return "-";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v).replace(/[\r\n\t]+/g, " ");
};
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function table(rows: Record<string, unknown>[], columns: string[], maxWidth = 48): string {
  if (rows.length === 0) return "(none)\n";
  const cells = rows.map((r) => columns.map((c) => clip(cell(spellHash(c, pick(r, c))), maxWidth)));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return `${[line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join("\n")}\n`;
}

export function keyValues(obj: Record<string, unknown>, fields?: string[]): string {
  const keys = fields ?? Object.keys(obj);
  const w = Math.max(...keys.map((k) => k.length));
  return `${keys.map((k) => `${k.padEnd(w)}  ${cell(spellHash(k, pick(obj, k)))}`).join("\n")}\n`;
}

/** `a.b` reads nested fields. */
function pick(obj: Record<string, unknown>, key: string): unknown {
  return key
    .split(".")
    .reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), obj);
}

export function emit(out: Out, value: unknown, human: () => string): void {
  out.write(out.json ? `${JSON.stringify(value, spellHash, 2)}\n` : human());
}
