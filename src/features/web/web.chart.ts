import { escapeHtml } from "./web.markdown";

// The agent's rating history as an SVG line drawn on the server (no chart library, no
// script). Points are (time, rating after the change), oldest first; the line starts at the
// rating before the oldest change shown.

export interface RatingPoint {
  at: string;
  before: number;
  after: number;
}

const CHART = { width: 640, height: 200, pad: 36 } as const;

export function ratingChartSvg(pointsNewestFirst: RatingPoint[], currentRating: number): string {
  const { width: W, height: H, pad: P } = CHART;
  const pts = [...pointsNewestFirst].reverse();
  const series: { t: number; r: number }[] = [];
  if (pts.length === 0) {
    series.push({ t: 0, r: currentRating }, { t: 1, r: currentRating });
  } else {
    series.push({ t: Date.parse(pts[0]!.at) - 1, r: pts[0]!.before });
    for (const p of pts) series.push({ t: Date.parse(p.at), r: p.after });
  }
  const t0 = series[0]!.t;
  const t1 = Math.max(series[series.length - 1]!.t, t0 + 1);
  let lo = Math.min(...series.map((s) => s.r));
  let hi = Math.max(...series.map((s) => s.r));
  if (hi - lo < 20) {
    lo -= 10;
    hi += 10;
  }
  const x = (t: number) => P + ((t - t0) / (t1 - t0)) * (W - 2 * P);
  const y = (r: number) => H - P + ((lo - r) / (hi - lo)) * (H - 2 * P);
  const path = series.map((s, i) => `${i ? "L" : "M"}${x(s.t).toFixed(1)},${y(s.r).toFixed(1)}`).join(" ");
  const label = `Rating history: from ${series[0]!.r} to ${currentRating} over ${pts.length} change${pts.length === 1 ? "" : "s"}`;
  return [
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(label)}">`,
    `<title>${escapeHtml(label)}</title>`,
    `<line x1="${P}" y1="${H - P}" x2="${W - P}" y2="${H - P}" stroke="#8c959f"/>`,
    `<line x1="${P}" y1="${P}" x2="${P}" y2="${H - P}" stroke="#8c959f"/>`,
    `<text x="4" y="${y(hi) + 4}" font-size="11" fill="#57606a">${hi}</text>`,
    `<text x="4" y="${y(lo) + 4}" font-size="11" fill="#57606a">${lo}</text>`,
    `<path d="${path}" fill="none" stroke="#0b57d0" stroke-width="2"/>`,
    ...series.slice(1).map((s) => `<circle cx="${x(s.t).toFixed(1)}" cy="${y(s.r).toFixed(1)}" r="3" fill="#0b57d0"/>`),
    `</svg>`,
  ].join("");
}
