import { createHash } from "node:crypto";

// A person's picture on the board (docs/web.md "People"): a 5×5 mirrored pattern drawn on the
// server from the SHA-256 of the lowercased address — deterministic, no external service, one
// small inline SVG path (a few hundred bytes), so the page stays light and nothing is fetched.

const GRID = 5;

/** The identicon's pieces: its colour (HSL hue) and the cells that are filled, left half mirrored. */
export function identiconCells(address: string): { hue: number; cells: [number, number][] } {
  const h = createHash("sha256").update(address.toLowerCase()).digest();
  const hue = Math.round(((h[0]! * 256 + h[1]!) / 65_536) * 360);
  const cells: [number, number][] = [];
  const half = Math.ceil(GRID / 2);
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < half; x++) {
      const bit = (h[2 + y * half + x]! & 1) === 1;
      if (!bit) continue;
      cells.push([x, y]);
      if (x !== GRID - 1 - x) cells.push([GRID - 1 - x, y]);
    }
  }
  return { hue, cells };
}

/**
 * The identicon as an inline SVG string. Decorative next to the name it sits beside (aria-hidden,
 * empty alt equivalent); the name or address beside it carries the meaning.
 */
export function identiconSvg(address: string, size = 20): string {
  const { hue, cells } = identiconCells(address);
  const d = cells.map(([x, y]) => `M${x} ${y}h1v1h-1z`).join("");
  return (
    `<svg class="idn" width="${size}" height="${size}" viewBox="-0.5 -0.5 6 6" aria-hidden="true" focusable="false">` +
    `<rect x="-0.5" y="-0.5" width="6" height="6" fill="hsl(${hue} 45% 92%)"/>` +
    `<path d="${d}" fill="hsl(${hue} 60% 38%)"/></svg>`
  );
}
