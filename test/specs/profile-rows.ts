// Reads the rows of the statement profile (specs/AIP-1/profile-statements.md): one per table line
// under a `## AIP-N` heading, five cells (§ | statement | level | status | test).

export const PROFILE = "specs/AIP-1/profile-statements.md";

export interface Row {
  spec: string;
  section: string;
  statement: string;
  status: string;
  tests: string;
  line: number;
  /** 1-based: this row is the n-th of its section in its spec's table. */
  nth: number;
}

export function profileRows(text: string): Row[] {
  const out: Row[] = [];
  const seen = new Map<string, number>();
  let spec: string | null = null;
  text.split("\n").forEach((l, i) => {
    const h = /^## (AIP-\d)\b/.exec(l);
    if (h) spec = h[1]!;
    if (!spec || !l.startsWith("| ") || l.startsWith("| § |") || l.startsWith("|---")) return;
    const cells = l.trim().replace(/^\|/, "").replace(/\|$/, "").split(" | ").map((c) => c.trim());
    if (cells.length !== 5) throw new Error(`${PROFILE}:${i + 1}: a row has 5 cells (§, statement, level, status, test)`);
    const nth = (seen.get(`${spec} ${cells[0]}`) ?? 0) + 1;
    seen.set(`${spec} ${cells[0]}`, nth);
    out.push({ spec, section: cells[0]!, statement: cells[1]!, status: cells[3]!, tests: cells[4]!, line: i + 1, nth });
  });
  return out;
}

/** The key PROFILE_PROBES uses for a row: "AIP-1 §5 #6". */
export const probeKey = (r: Row) => `${r.spec} ${r.section} #${r.nth}`;
