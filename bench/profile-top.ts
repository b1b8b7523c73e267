// `node dist/bench/profile-top.js <file.cpuprofile> [from-s] [to-s] [top]`: functions by self time, optionally within a time window.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

function label(n: ProfileNode): string {
  const f = n.callFrame;
  const name = f.functionName === '' ? '(anonymous)' : f.functionName;
  if (f.url === '') return name;
  const file = f.url.startsWith('file://') ? relative(process.cwd(), new URL(f.url).pathname) : f.url;
  return `${name}  ${file}:${f.lineNumber + 1}`;
}

function main(): void {
  const [file, fromArg, toArg, topArg] = process.argv.slice(2);
  if (file === undefined) {
    console.error('usage: node dist/bench/profile-top.js <file.cpuprofile> [from-s] [to-s] [top]');
    process.exitCode = 2;
    return;
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const from = fromArg === undefined ? 0 : Number(fromArg) * 1e6;
  const to = toArg === undefined ? Infinity : Number(toArg) * 1e6;
  const top = topArg === undefined ? 25 : Number(topArg);
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const self = new Map<number, number>();
  // Inclusive time per function label: each sample counts once per distinct label on its stack.
  const inclusive = new Map<string, number>();
  let t = 0;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (t < from || t > to) continue;
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const l = label(nodes.get(at)!);
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + dt);
    }
  }
  const byLabel = new Map<string, number>();
  for (const [id, us] of self) {
    const l = label(nodes.get(id)!);
    byLabel.set(l, (byLabel.get(l) ?? 0) + us);
  }
  const pct = (us: number): string => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
  const ms = (us: number): string => `${(us / 1000).toFixed(0).padStart(8)} ms`;
  console.log(
    `${file}: ${(total / 1e6).toFixed(1)} s sampled in [${(from / 1e6).toFixed(1)} s, ${to === Infinity ? 'end' : `${(to / 1e6).toFixed(1)} s`}] ` +
      `of ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s`,
  );
  console.log('\nself time:');
  for (const [l, us] of [...byLabel].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${ms(us)} ${pct(us)}  ${l}`);
  console.log('\ninclusive time:');
  for (const [l, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${ms(us)} ${pct(us)}  ${l}`);
}

main();
