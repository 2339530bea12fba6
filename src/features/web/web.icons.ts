import { deflateSync } from "node:zlib";

// The site's icon (docs/web.md "Delivery"): one drawing — a ring on a rounded square, the board's
// accent colour — as SVG for browsers that take it, and drawn into PNG pixels on first request for
// /favicon.ico (a PNG inside an ICO container, which every current browser reads) and the
// apple-touch icon. Generated, not committed: a few hundred bytes, computed once per process.

const BG = [0x1f, 0x4e, 0xd8] as const; // accent blue
const FG = [0xff, 0xff, 0xff] as const;

export const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">' +
  '<rect width="64" height="64" rx="14" fill="#1f4ed8"/>' +
  '<circle cx="32" cy="32" r="16" fill="none" stroke="#fff" stroke-width="8"/></svg>';

/** The four sample points of a pixel (1/4-pixel supersampling at the edges). */
const SAMPLES = [0.25, 0.75] as const;

/** RGBA pixels of the icon at `size` px; no allocation per sample (it runs at every start). */
function draw(size: number, rounded: boolean): Uint8Array {
  const px = new Uint8Array(size * size * 4);
  const s = size / 64;
  const radius = 14 * s;
  const half = size / 2;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      // Background and ring coverage of the pixel's four sample points, in icon units.
      let bg = 0;
      let ring = 0;
      for (const dy of SAMPLES)
        for (const dx of SAMPLES) {
          const sx = x + dx;
          const sy = y + dy;
          const cx = Math.min(Math.max(sx, radius), size - radius);
          const cy = Math.min(Math.max(sy, radius), size - radius);
          if (rounded && (sx - cx) ** 2 + (sy - cy) ** 2 > radius * radius) continue;
          bg++;
          const d = Math.sqrt((sx - half) ** 2 + (sy - half) ** 2) / s;
          if (d >= 12 && d <= 20) ring++;
        }
      const i = (y * size + x) * 4;
      const t = bg === 0 ? 0 : ring / bg;
      for (let k = 0; k < 3; k++) px[i + k] = Math.round(BG[k]! * (1 - t) + FG[k]! * t);
      px[i + 3] = Math.round((bg / 4) * 255);
    }
  return px;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const x of b) c = CRC_TABLE[(c ^ x) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A PNG (RFC 2083) of RGBA pixels: IHDR, one IDAT, IEND. */
function png(size: number, rgba: Uint8Array): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, "latin1");
    out.set(data, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rows.set(rgba.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/** /favicon.ico: one 32 × 32 PNG image in an ICO container. */
export function faviconIco(): Uint8Array {
  const image = png(32, draw(32, true));
  const head = Buffer.alloc(22);
  head.writeUInt16LE(0, 0); // reserved
  head.writeUInt16LE(1, 2); // type: icon
  head.writeUInt16LE(1, 4); // one image
  head[6] = 32; // width
  head[7] = 32; // height
  head.writeUInt16LE(1, 10); // colour planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(image.length, 14);
  head.writeUInt32LE(22, 18); // offset of the image
  return Buffer.concat([head, image]);
}

/** The apple-touch icon: 180 × 180, square (iOS rounds the corners itself), opaque. */
export function appleTouchIconPng(): Uint8Array {
  return png(180, draw(180, false));
}
