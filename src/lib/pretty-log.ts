// Human log lines for a terminal (`LOG_LEVEL`, docs/configuration.md): pino writes JSON; on a TTY each
// line is re-printed as `HH:MM:SS LEVEL message key=value …`. Anything not a TTY (files, pipes,
// log collectors, the tests) keeps the JSON lines.

const LEVELS: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO ", 40: "WARN ", 50: "ERROR", 60: "FATAL" };
const COLOURS: Record<number, string> = { 40: "\x1b[33m", 50: "\x1b[31m", 60: "\x1b[31m" };
const OMIT = new Set(["level", "time", "msg", "pid", "hostname", "service"]);

const value = (v: unknown): string => {
  if (typeof v === "string") return /[\s"=]/.test(v) ? JSON.stringify(v) : v;
  if (v && typeof v === "object" && "message" in v && "stack" in v) return JSON.stringify((v as Error).message);
  return JSON.stringify(v);
};

/** One JSON log line as a human line (the line itself when it is not JSON). */
function prettyLine(line: string, colour = false): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line);
  } catch {
    return line.endsWith("\n") ? line : `${line}\n`;
  }
  const level = Number(o.level);
  const time = typeof o.time === "number" ? new Date(o.time).toISOString().slice(11, 19) : "";
  const fields = Object.entries(o)
    .filter(([k]) => !OMIT.has(k))
    .map(([k, v]) => `${k}=${value(v)}`)
    .join(" ");
  const tag = LEVELS[level] ?? String(o.level);
  const shown = colour && COLOURS[level] ? `${COLOURS[level]}${tag}\x1b[0m` : tag;
  const err = o.err && typeof o.err === "object" && "stack" in o.err ? `\n${String((o.err as Error).stack)}` : "";
  return `${time} ${shown} ${String(o.msg ?? "")}${fields ? `  ${fields}` : ""}${err}\n`;
}

/** A pino destination that prints human lines to `out` (a terminal). */
export function prettyDestination(out: NodeJS.WritableStream): { write(line: string): void } {
  return { write: (line) => void out.write(prettyLine(line.trimEnd(), true)) };
}
