// `npm run bench:lighthouse` (docs/web.md "Delivery"): Lighthouse's mobile profile (its default:
// a throttled mid-range phone on a slow 4G link) in headless Chromium against a real server with
// 30 seeded missions; prints the performance, accessibility, best-practices and SEO scores of the
// board, a mission page, an agent page and the ranking. A bench, not a test: scores depend on the
// machine's load (performance especially). Target: ≥ 0.98 on each (bench/README.md "Lighthouse").
//
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/oabp_bench_lighthouse) is dropped
// and recreated. OABP_CHROMIUM: the browser (default /usr/bin/chromium).
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { openDatabase } from "../src/db/client";
import { freePort, log, recreateDatabase, startChild, stopAll, waitReady } from "./harness";
import { seedMissions } from "./seed";

const DB_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/oabp_bench_lighthouse";
const CHROMIUM = process.env.OABP_CHROMIUM ?? "/usr/bin/chromium";
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

async function main() {
  await recreateDatabase(DB_URL);
  const database = await openDatabase({ url: DB_URL, poolMax: 2, migrate: true });
  const seeded = await seedMissions(database.db, 30);
  await database.close();

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startChild("server", ["--import", "tsx", "src/main.ts"], {
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: DB_URL,
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    OABP_PUBLIC_URL: base,
    OABP_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "oabp-bench-lh-")),
    OABP_RATE_LIMIT_ENABLED: "false",
  });
  const chrome = await launch({
    chromePath: CHROMIUM,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    await waitReady(server, `${base}/ready`, 60_000);
    const missionId = seeded.ids[seeded.ids.length - 1]!;
    const mission = (await (await fetch(`${base}/missions/${missionId}`)).json()) as { creator: string };
    const pages = [
      ["board", "/"],
      ["mission", `/m/${missionId}`],
      ["agent", `/u/${mission.creator}`],
      ["ranking", "/ranking"],
    ] as const;
    const rows: string[] = [];
    for (const [name, p] of pages) {
      // One warm-up load (the first fills the server's caches), then the measured one.
      await fetch(`${base}${p}`, { headers: { accept: "text/html" } });
      const r = await lighthouse(`${base}${p}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: [...CATEGORIES],
      });
      if (!r) throw new Error(`lighthouse gave no result for ${p}`);
      const cats = r.lhr.categories;
      const scores = CATEGORIES.map((c) => (cats[c]?.score ?? 0).toFixed(2));
      const failing = Object.values(r.lhr.audits)
        .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== "informative")
        .map((a) => a.id);
      rows.push(
        `| ${name} | \`${p.replace(missionId, "{id}").replace(mission.creator, "{address}")}\` | ${scores.join(" | ")} |`,
      );
      log(
        `${name}: ${CATEGORIES.map((c, i) => `${c}=${scores[i]}`).join(" ")}${failing.length ? ` (below 0.9: ${failing.join(", ")})` : ""}`,
      );
    }
    process.stdout.write(
      `| page | path | ${CATEGORIES.join(" | ")} |\n|:--|:--|${CATEGORIES.map(() => "--:").join("|")}|\n${rows.join("\n")}\n`,
    );
  } finally {
    chrome.kill();
    await stopAll();
  }
}

main().catch(async (err: unknown) => {
  log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  await stopAll();
  process.exit(1);
});
