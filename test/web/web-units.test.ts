import { describe, expect, it } from "vitest";
import { parseEnv } from "../../src/env";
import { ratingChartSvg } from "../../src/features/web/web.chart";
import {
  exactTime,
  formatAmount,
  parseWholeUnits,
  relativeTime,
  verificationInWords,
} from "../../src/features/web/web.format";
import { identiconCells, identiconSvg } from "../../src/features/web/web.identicon";
import { markdownToText, renderMarkdown } from "../../src/features/web/web.markdown";
import { humanize, plural, words } from "../../src/features/web/web.words";
import { MISSION_PHASES, MISSION_STATUSES, PAYOUT_STATUSES, VERIFICATION_TYPES } from "../../src/db/vocabulary";
import { contrastOnWhite } from "../../src/env.settings";
import { brandCss, contrast, darkAccent, DARK_BG, MIN_CONTRAST } from "../../src/features/web/web.brand";
import { jsonLdText } from "../../src/features/web/web.layout";
import { parseBoardQuery } from "../../src/features/web/web.board-query";

const assets = parseEnv({ LOG_LEVEL: "silent" }).assets;

describe("web board units", () => {
  it("formats base units with the asset's decimals, never through a float", () => {
    expect(formatAmount({ amount: "25500000", asset: "USDC" }, assets)).toBe("25.5 USDC");
    expect(formatAmount({ amount: "123456789012345678901234567890", asset: "USDC" }, assets)).toBe(
      "123,456,789,012,345,678,901,234.56789 USDC",
    );
    expect(formatAmount({ amount: "1", asset: "USDC" }, assets)).toBe("0.000001 USDC");
    expect(formatAmount({ amount: "7", asset: "WAT" }, assets)).toBe("7 (unknown units of WAT)");
  });

  it("counts down and up against the injected time", () => {
    const now = new Date("2026-06-01T00:00:00Z");
    expect(relativeTime({ now }, new Date("2026-06-04T05:00:00Z"))).toBe("in 3 days");
    expect(relativeTime({ now }, new Date("2026-05-31T22:30:00Z"))).toBe("1 hour 30 minutes ago");
    expect(relativeTime({ now }, new Date("2026-06-01T01:00:00Z"))).toBe("in 1 hour");
    expect(relativeTime({ now }, new Date("2026-06-01T00:00:20Z"))).toBe("in less than a minute");
    expect(relativeTime({ now }, new Date("2026-06-02T12:00:00Z"))).toBe("in 36 hours");
    expect(exactTime(new Date("2026-12-03T14:00:00Z"))).toBe("Thu 3 Dec 2026, 14:00 UTC");
    expect(exactTime(new Date("2026-12-03T14:00:00Z"), { short: true })).toBe("3 Dec, 14:00 UTC");
  });

  it("says the verification rule in words", () => {
    expect(verificationInWords({ type: "creator_judges", params: { max_winners: 3 } })).toBe(
      "The creator picks up to 3 winners; the pick is final.",
    );
    expect(
      verificationInWords({ type: "creator_judges", params: { appeal: { appeal_window_seconds: 172_800 } } }),
    ).toBe("The creator picks the winner; others have 2 days to dispute the pick before it pays.");
    expect(
      verificationInWords({ type: "creator_judges", params: { judging_window_seconds: 259_200, appeal: false } }),
    ).toBe("The creator picks the winner within 3 days of the deadline; the pick is final.");
    expect(verificationInWords({ type: "first_valid_match", params: { target_hash: "sha256:00" } })).toMatch(
      /fingerprint/,
    );
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

  it("board query: open by default, status=any lifts it, rewards in whole units, bad values in words", () => {
    const now = new Date("2026-06-01T00:00:30Z");
    const a = parseBoardQuery({ now }, { raw: {}, assets });
    expect(a.ok && a.f.status).toEqual(["open"]);
    const b = parseBoardQuery({ now }, { raw: { status: "any", q: "" }, assets });
    expect(b.ok && b.f.status).toBeUndefined();
    // "50" means 50 USDC: the filter is in base units, the asset implied.
    const c = parseBoardQuery({ now }, { raw: { min_reward: "50", max_reward: "1,000.5" }, assets });
    expect(c.ok && [c.f.reward_min, c.f.reward_max, c.f.asset]).toEqual(["50000000", "1000500000", "USDC"]);
    const d = parseBoardQuery({ now }, { raw: { due: "7d" }, assets });
    expect(d.ok && d.f.deadline_before).toBe("2026-06-08T00:00:00.000Z");
    // Base-unit parameters are not the board's: ignored, never a uint256 error.
    expect(parseBoardQuery({ now }, { raw: { reward_min: "-1" }, assets }).ok).toBe(true);
    const bad = parseBoardQuery({ now }, { raw: { min_reward: "-1", due: "soon" }, assets });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.errors.min_reward).toBe("Enter an amount in USDC like 50 or 12.5.");
      expect(bad.errors.due).toBeDefined();
      expect(Object.values(bad.errors).join(" ")).not.toMatch(/uint|base-10|_/);
    }
    // "all" means what "All" in the form means; any other value is answered with the choices, in words.
    const all = parseBoardQuery({ now }, { raw: { status: "all" }, assets });
    expect(all.ok && all.f.status).toBeUndefined();
    const wrong = parseBoardQuery(
      { now },
      { raw: { status: "finished", verification_type: "vote", sort: "cheap" }, assets },
    );
    expect(!wrong.ok && wrong.errors).toEqual({
      status: "Status: “finished” is not one of the choices; choose Open, Being judged, Awarded, Cancelled or All.",
      verification_type:
        "How the winner is chosen: “vote” is not one of the choices; choose The creator picks the winner, First correct answer wins, Voters decide or An oracle decides.",
      sort: "Sort: “cheap” is not one of the choices; choose Newest first, Ending soonest or Biggest reward.",
    });
    expect(!bad.ok && bad.errors.due).toBe(
      "Ends within: “soon” is not one of the choices; choose a day, a week or a month.",
    );
    const tooFine = parseBoardQuery({ now }, { raw: { min_reward: "0.0000001" }, assets });
    expect(!tooFine.ok && tooFine.errors.min_reward).toBe("USDC has at most 6 digits after the point.");
  });

  it("whole units → base units, exactly", () => {
    const usdc = { symbol: "USDC", decimals: 6 };
    expect(parseWholeUnits("25.5", usdc)).toEqual({ ok: true, value: 25_500_000n });
    expect(parseWholeUnits("1 000", usdc)).toEqual({ ok: true, value: 1_000_000_000n });
    expect(parseWholeUnits("1e3", usdc).ok).toBe(false);
    expect(parseWholeUnits("9".repeat(41), usdc).ok).toBe(false);
  });

  it("one vocabulary: every status, phase, payout state and method has words, none snake_case", () => {
    for (const s of MISSION_STATUSES) expect(words.status(s)).not.toMatch(/_/);
    for (const s of MISSION_PHASES) expect(words.phase(s)).not.toMatch(/_/);
    for (const s of PAYOUT_STATUSES) expect(words.payout(s)).not.toMatch(/_/);
    for (const s of VERIFICATION_TYPES) expect(words.method(s)).not.toMatch(/_/);
    expect(words.reason("some_new_reason")).toBe("some new reason");
    expect(humanize("a_b-c")).toBe("a b c");
    expect(plural(1, "submission")).toBe("1 submission");
    expect(plural(2, "submission")).toBe("2 submissions");
    expect(plural(1200, "day")).toBe("1,200 days");
  });

  it("identicons are deterministic, mirrored, small and case-blind", () => {
    const addr = "0x52908400098527886E0F7030069857D2E4169EE7";
    expect(identiconSvg(addr)).toBe(identiconSvg(addr.toLowerCase()));
    expect(identiconSvg(addr)).not.toBe(identiconSvg("0x8617e340b3d01fa5f11f306f4090fd50e238070d"));
    const { cells } = identiconCells(addr);
    const set = new Set(cells.map(([x, y]) => `${x},${y}`));
    for (const [x, y] of cells) expect(set.has(`${4 - x},${y}`)).toBe(true);
    expect(identiconSvg(addr).length).toBeLessThan(700);
    expect(identiconSvg(addr)).toContain('aria-hidden="true"');
  });

  it("Markdown → plain text for snippets and og:description, bounded at a word", () => {
    expect(markdownToText("# Title\n\n**Bold** and [a link](https://x.example) & <b>raw</b>")).toBe(
      "Title Bold and a link & <b>raw</b>",
    );
    const long = markdownToText("word ".repeat(100), 40);
    expect(long.length).toBeLessThanOrEqual(40);
    expect(long.endsWith("word…")).toBe(true);
  });

  it("the brand accent must be readable on white", () => {
    expect(contrastOnWhite("#0b57d0")).toBeGreaterThan(4.5);
    expect(contrastOnWhite("#ffff00")).toBeLessThan(4.5);
    expect(() => parseEnv({ LOG_LEVEL: "silent", OABP_BRAND_ACCENT: "#ffff00" })).toThrow(/contrast/);
    expect(parseEnv({ LOG_LEVEL: "silent" }).brandName).toBe("Open Bounty Board");
  });

  it("the brand accent reads in both colour schemes: a lighter shade of it in dark mode", () => {
    // A dark accent passes on white but vanishes on the dark page: a shade of it is derived.
    expect(contrastOnWhite("#202020")).toBeGreaterThan(16);
    expect(contrast("#202020", DARK_BG)).toBeLessThan(1.3);
    const derived = darkAccent("#202020");
    expect(contrast(derived, DARK_BG)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    // Mixed towards white from the accent itself: the grey stays grey.
    expect(new Set([derived.slice(1, 3), derived.slice(3, 5), derived.slice(5, 7)]).size).toBe(1);
    // A colour that already reads on the dark page is its own dark shade (web.css's dark default).
    expect(darkAccent("#58a6ff")).toBe("#58a6ff");
    expect(contrast(darkAccent("#0b57d0"), DARK_BG)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    // Every accent the setting accepts gets a dark shade that reads (a sweep over the colour cube).
    for (let r = 0; r < 256; r += 51)
      for (let g = 0; g < 256; g += 51)
        for (let b = 0; b < 256; b += 51) {
          const hex = `#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
          if (contrastOnWhite(hex) < MIN_CONTRAST) continue;
          expect(contrast(darkAccent(hex), DARK_BG), hex).toBeGreaterThanOrEqual(MIN_CONTRAST);
          expect(contrast(hex, "#ffffff")).toBeCloseTo(contrastOnWhite(hex), 9);
        }
    expect(brandCss("#202020")).toBe(
      `:root{--accent:#202020}@media (prefers-color-scheme: dark){:root{--accent:${derived}}}`,
    );
  });
});
