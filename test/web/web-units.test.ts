import { describe, expect, it } from "vitest";
import { parseEnv } from "../../src/env";
import { ratingChartSvg } from "../../src/features/web/web.chart";
import { formatAmount, relativeTime, verificationInWords } from "../../src/features/web/web.format";
import { jsonLdText } from "../../src/features/web/web.layout";
import { renderMarkdown } from "../../src/features/web/web.markdown";
import { parseBoardQuery } from "../../src/features/web/web.board";

const assets = parseEnv({ LOG_LEVEL: "silent" }).assets;

describe("web board units", () => {
  it("formats base units with the asset's decimals, never through a float", () => {
    expect(formatAmount("25500000", "USDC", assets)).toBe("25.5 USDC");
    expect(formatAmount("123456789012345678901234567890", "USDC", assets)).toBe(
      "123,456,789,012,345,678,901,234.56789 USDC",
    );
    expect(formatAmount("1", "USDC", assets)).toBe("0.000001 USDC");
    expect(formatAmount("7", "WAT", assets)).toBe("7 WAT (base units)");
  });

  it("counts down and up against the injected time", () => {
    const now = new Date("2026-06-01T00:00:00Z");
    expect(relativeTime(new Date("2026-06-04T05:00:00Z"), now)).toBe("in 3 d 5 h");
    expect(relativeTime(new Date("2026-05-31T22:30:00Z"), now)).toBe("1 h 30 min ago");
  });

  it("says the verification rule in words", () => {
    expect(verificationInWords("creator_judges", { max_winners: 3 })).toBe("The creator picks up to 3 winners.");
    expect(verificationInWords("first_valid_match", { target_hash: "sha256:00" })).toMatch(/SHA-256/);
  });

  it("escapes < and line separators in JSON-LD", () => {
    const s = jsonLdText({ a: "</script><script>x()</script>\u2028" });
    expect(s).not.toContain("<");
    expect(JSON.parse(s)).toEqual({ a: "</script><script>x()</script>\u2028" });
  });

  it("renders Markdown without raw HTML or script URLs", () => {
    const out = renderMarkdown('<b>x</b> [a](javascript:alert(1)) [b](https://ok.example "t\\"") `<i>`');
    expect(out).toContain("&lt;b&gt;x&lt;/b&gt;");
    expect(out).not.toContain("javascript:");
    expect(out).toContain('<a href="https://ok.example" title="t&quot;" rel="nofollow ugc noopener noreferrer">b</a>');
    expect(out).toContain("<code>&lt;i&gt;</code>");
  });

  it("draws the rating chart from the history, oldest to newest, with an accessible label", () => {
    const svg = ratingChartSvg(
      [
        { at: "2026-06-03T00:00:00Z", before: 1416, after: 1430 },
        { at: "2026-06-02T00:00:00Z", before: 1400, after: 1416 },
      ],
      1430,
    );
    expect(svg).toContain('aria-label="Rating history: from 1400 to 1430 over 2 changes"');
    expect(svg.match(/<circle/g)).toHaveLength(2);
    expect(ratingChartSvg([], 1400)).toContain("over 0 changes");
  });

  it("board query: open by default, status=any lifts it, bad values are reported", () => {
    const a = parseBoardQuery({});
    expect(a.ok && a.f.status).toEqual(["open"]);
    const b = parseBoardQuery({ status: "any", q: "" });
    expect(b.ok && b.f.status).toBeUndefined();
    expect(parseBoardQuery({ reward_min: "-1" }).ok).toBe(false);
  });
});
