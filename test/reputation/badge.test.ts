import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { badgeColor, badgeEtag, etagMatches, renderBadge } from "../../src/features/reputation/badge";
import { winRate } from "../../src/features/reputation/leaderboard";

// Pure parts of the badge (AIP-1 §5): colour bands, XML safety for any input, validators.

/** XML 1.0 §2.2: Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF] */
const XML_CHARS = /^[\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

describe("badge rendering", () => {
  it.each([
    [2100, "#4c1"],
    [1800, "#4c1"],
    [1799, "#97ca00"],
    [1600, "#97ca00"],
    [1599, "#a4a61d"],
    [1400, "#a4a61d"],
    [1399, "#dfb317"],
    [1200, "#dfb317"],
    [1199, "#fe7d37"],
    [1000, "#fe7d37"],
    [999, "#e05d44"],
    [0, "#e05d44"],
  ])("rating %i → %s, and the message box has that colour", (rating, color) => {
    expect(badgeColor(rating)).toBe(color);
    expect(renderBadge({ agentId: "0xabc", displayName: null, rating })).toContain(`fill="${color}"`);
  });

  it("is well-formed XML for any display name (random code units, lone surrogates, controls, markup)", () => {
    const parser = new XMLParser({ ignoreAttributes: false });
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pool = [
      "<",
      ">",
      "&",
      '"',
      "'",
      "]]>",
      "<!--",
      "\u0000",
      "\u0008",
      "\u001f",
      "\uD800",
      "\uDFFF",
      "\uFFFE",
      "\uFFFF",
      "é",
      "😀",
      "&amp;",
      "\t",
      "\n",
      "\r",
    ];
    for (let i = 0; i < 300; i++) {
      let name = "";
      for (let j = 0; j < 1 + Math.floor(rnd() * 20); j++)
        name += rnd() < 0.5 ? pool[Math.floor(rnd() * pool.length)] : String.fromCharCode(Math.floor(rnd() * 0x10000));
      const svg = renderBadge({
        agentId: "0x0000000000000000000000000000000000000001",
        displayName: name,
        rating: 1400,
      });
      expect(XMLValidator.validate(svg), JSON.stringify(name)).toBe(true);
      // The validator does not check XML 1.0 §2.2 Char (controls, lone surrogates, U+FFFE/F).
      expect(XML_CHARS.test(svg), JSON.stringify(name)).toBe(true);
      expect(
        Object.keys(parser.parse(svg).svg)
          .filter((k) => !k.startsWith("@_"))
          .sort(),
      ).toEqual(["clipPath", "g", "linearGradient", "title"]);
    }
  });

  it("is deterministic, so its hash is a strong ETag; If-None-Match uses weak comparison", () => {
    const a = renderBadge({ agentId: "0xabc", displayName: "Ada", rating: 1488 });
    expect(renderBadge({ agentId: "0xabc", displayName: "Ada", rating: 1488 })).toBe(a);
    const etag = badgeEtag(a);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(badgeEtag(renderBadge({ agentId: "0xabc", displayName: "Ada", rating: 1486 }))).not.toBe(etag);
    expect(etagMatches(etag, etag)).toBe(true);
    expect(etagMatches(`W/${etag}`, etag)).toBe(true);
    expect(etagMatches(` "x" ,${etag} `, etag)).toBe(true);
    expect(etagMatches("*", etag)).toBe(true);
    expect(etagMatches(undefined, etag)).toBe(false);
    expect(etagMatches('"x"', etag)).toBe(false);
    expect(etagMatches(etag.slice(1, -1), etag)).toBe(false); // unquoted is not the same tag
  });
});

describe("win_rate", () => {
  it("is completed / attempted to 4 decimals, null before any resolved mission", () => {
    expect(winRate(0, 0)).toBeNull();
    expect(winRate(0, 6)).toBe(0);
    expect(winRate(2, 3)).toBe(0.6667);
    expect(winRate(5, 5)).toBe(1);
  });
});
