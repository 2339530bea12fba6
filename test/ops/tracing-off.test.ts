import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startTracing } from "../../src/lib/tracing";

const SRC = path.resolve(import.meta.dirname, "../../src");
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}

// Tracing off (the default) costs nothing: no OpenTelemetry module is loaded.
describe("OpenTelemetry off by default", () => {
  it("startTracing answers null for none and for OTEL_SDK_DISABLED", async () => {
    expect(await startTracing("none")).toBeNull();
    expect(await startTracing("otlp", { OTEL_SDK_DISABLED: "true" })).toBeNull();
  });

  it("the source imports @opentelemetry only as types, or dynamically in src/lib/tracing.ts", () => {
    const offenders: string[] = [];
    for (const f of files(SRC)) {
      const text = readFileSync(f, "utf8");
      for (const m of text.matchAll(/^import\s+(type\s+)?[^;]*?from\s+"(@opentelemetry\/[^"]+)"/gms))
        if (!m[1]) offenders.push(`${path.relative(SRC, f)}: ${m[2]}`);
      if (!f.endsWith(path.join("lib", "tracing.ts")) && /import\("@opentelemetry/.test(text))
        offenders.push(`${path.relative(SRC, f)}: dynamic import`);
    }
    expect(offenders).toEqual([]);
  });
});
