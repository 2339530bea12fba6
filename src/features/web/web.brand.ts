// The brand accent in both colour schemes (docs/web.md "Brand"). OABP_BRAND_ACCENT is checked
// against white at start-up (env.settings.ts); web.css's dark scheme paints links and buttons on
// DARK_BG, where a dark accent would vanish (#202020 is 16:1 on white and 1.2:1 on DARK_BG). So
// the dark scheme gets a lighter shade of the accent that reads there.

/** web.css's dark-scheme page background (`--bg` under prefers-color-scheme: dark). */
export const DARK_BG = "#0d1117";
/** WCAG 2 AA for normal text: links and button labels. */
export const MIN_CONTRAST = 4.5;

const channels = (hex: string) => [0, 1, 2].map((i) => parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16));

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG 2 contrast ratio between two #rrggbb colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const hex2 = (n: number) => Math.round(n).toString(16).padStart(2, "0");

/**
 * The accent for the dark scheme: the same hue mixed towards white, in 5 % steps from none, until
 * it reads on DARK_BG (white reads at 18:1, so this ends). No colour reads at 4.5:1 on both white
 * and DARK_BG (that needs a luminance ≤ 0.183 and ≥ 0.200 at once), so every accent the setting
 * accepts gets a lighter shade here; a colour that already reads on DARK_BG is its own.
 */
export function darkAccent(accent: string): string {
  const rgb = channels(accent.toLowerCase());
  for (let step = 0; step <= 20; step++) {
    const t = step / 20;
    const mixed = `#${rgb.map((v) => hex2(v + (255 - v) * t)).join("")}`;
    if (contrast(mixed, DARK_BG) >= MIN_CONTRAST) return mixed;
  }
  return "#ffffff";
}

/** /assets/brand.css: the accent for the light scheme and its dark-scheme counterpart. */
export const brandCss = (accent: string) =>
  `:root{--accent:${accent}}@media (prefers-color-scheme: dark){:root{--accent:${darkAccent(accent)}}}`;
