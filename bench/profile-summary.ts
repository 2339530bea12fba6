import { readFileSync } from "node:fs";

// Summarises a V8 .cpuprofile (as written by `BENCH_CPU_PROF=<dir> npm run bench`): self time
// per function and per package/file, so hot middleware or serialisation stands out without a GUI.
//
//   npx tsx bench/profile-summary.ts <file.cpuprofile> [top=25]

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const file = process.argv[2];
if (!file) {
  console.error("usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]");
  process.exit(2);
}
const top = Number(process.argv[3] ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

function where(url: string): string {
  if (!url) return "(native/V8)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith("node:")) return url;
  const src = url.indexOf("/src/");
  return src >= 0 ? url.slice(src + 1) : url;
}

const fnSelf = new Map<string, number>();
const pkgSelf = new Map<string, number>();
// Inclusive time of our own source files: a sample counts once for every distinct src/ frame on its stack.
const srcIncl = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  const f = n.callFrame;
  const key = `${f.functionName || "(anonymous)"} ${where(f.url)}:${f.lineNumber + 1}`;
  fnSelf.set(key, (fnSelf.get(key) ?? 0) + us);
  const pkg = where(f.url);
  pkgSelf.set(pkg, (pkgSelf.get(pkg) ?? 0) + us);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const cf = byId.get(cur)!.callFrame;
    if (cf.url.includes("/src/") && !cf.url.includes("node_modules")) {
      const k = `${cf.functionName || "(anonymous)"} ${where(cf.url)}:${cf.lineNumber + 1}`;
      if (!seen.has(k)) {
        seen.add(k);
        srcIncl.set(k, (srcIncl.get(k) ?? 0) + us);
      }
    }
  }
}

const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${k}`);
};
console.log(`profile ${file}: ${(total / 1e6).toFixed(1)} s sampled`);
print("self time by package / file", pkgSelf);
print("self time by function", fnSelf);
print("inclusive time of src/ functions", srcIncl);
