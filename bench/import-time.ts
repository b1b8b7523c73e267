// Section `import-time`: what `serve` loads on its main thread, imported and not started, by the unbundled build and by the bundle `npm start` runs.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { envNumber } from './env.js';
import { mainThreadCpuSeconds, median, processCpuSeconds } from './measure.js';
import { formatGrid } from './report.js';
import { check, type BenchContext, type Section, type SectionResult } from './section.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const TARGET_MS = 500;

export const IMPORT_TIME_USAGE = [
  '             import-time: BENCH_IMPORT_RUNS (import runs of each build, interleaved, default 9),',
  '             BENCH_IMPORT_LISTEN_RUNS (`serve` started until it listens, each build, default 5; 0: none)',
];

interface Variant {
  name: string;
  /** The node arguments of a run; none for node alone. */
  args: string[];
}

/** One run: wall from spawn to exit, and the child's own clock and CPU since it started, at the end of its imports. */
interface Sample {
  wallMs: number;
  ms: number;
  cpuMs: number;
}

/** Modules a run loaded on its main thread: ES modules by origin (from a load hook), CommonJS (require's cache). */
interface ModuleCount {
  esm: number;
  typebox: number;
  kysely: number;
  service: number;
  commonjs: number;
}

// `serve` with the defaults `npm start` has: one process, the simulator, the embedded store.
function childEnv(ctx: BenchContext): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ROLE: 'all', FEED: 'simulator', DATA_DIR: ctx.tempDir };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.NODE_OPTIONS;
  return env;
}

async function sample(variant: Variant, ctx: BenchContext): Promise<Sample> {
  const started = performance.now();
  // cwd: the temp dir, so no .env of the checkout changes the configuration measured.
  const { stdout } = await run(process.execPath, variant.args, {
    cwd: ctx.tempDir,
    env: childEnv(ctx),
    timeout: 60_000,
  });
  const wallMs = performance.now() - started;
  const out = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { ms?: number; cpuMs?: number };
  if (typeof out.ms !== 'number' || typeof out.cpuMs !== 'number')
    throw new Error(`${variant.name}: no figures in ${stdout}`);
  return { wallMs, ms: out.ms, cpuMs: out.cpuMs };
}

/** One more run with a load hook recording each module (not timed: the hook slows loading down). */
async function countModules(variant: Variant, ctx: BenchContext): Promise<ModuleCount> {
  const file = join(ctx.tempDir, `modules-${variant.name.replace(/\W+/g, '-')}.txt`);
  await rm(file, { force: true });
  const env = { ...childEnv(ctx), IMPORT_COUNT_FILE: file };
  await run(process.execPath, ['--import', join(import.meta.dirname, 'import-count.js'), ...variant.args], {
    cwd: ctx.tempDir,
    env,
    timeout: 120_000,
  });
  const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '');
  const esm = lines.filter((l) => l.startsWith('module ')).map((l) => l.slice('module '.length));
  const commonjs = Number(lines.find((l) => l.startsWith('commonjs-loaded '))?.split(' ')[1] ?? NaN);
  return {
    esm: esm.length,
    typebox: esm.filter((u) => /\/node_modules\/(@sinclair\/)?typebox\//.test(u)).length,
    kysely: esm.filter((u) => u.includes('/node_modules/kysely/')).length,
    service: esm.filter((u) => u.includes('/dist/src/') || u.includes('/dist/bundle/')).length,
    commonjs,
  };
}

/** `serve` until it listens: wall ms, and the CPU ms of its main thread and of the whole process by then (/proc). */
interface ListenSample {
  ms: number;
  mainCpuMs: number;
  processCpuMs: number;
}

/**
 * `serve` itself, as `npm start` runs it (FEED=simulator, a new embedded store, PORT=0), from spawn to its "listening
 * on" line, then stopped. The simulator's and the store's threads start meanwhile: the main thread's CPU is the figure
 * a loaded machine changes least.
 */
async function listenSample(cli: string, ctx: BenchContext): Promise<ListenSample> {
  const dataDir = await mkdtemp(join(ctx.tempDir, 'listen-'));
  const started = performance.now();
  const child = ctx.children.spawn('serve', process.execPath, [cli, 'serve'], {
    cwd: ctx.tempDir,
    env: { ...childEnv(ctx), DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
  });
  const pid = child.process.pid ?? 0;
  try {
    return await new Promise<ListenSample>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`serve did not listen within 120 s:\n${seen}`)), 120_000);
      child.process.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (!seen.includes(' listening on ')) return;
        clearTimeout(timer);
        const ms = performance.now() - started;
        resolve({
          ms,
          mainCpuMs: (mainThreadCpuSeconds(pid) ?? NaN) * 1000,
          processCpuMs: (processCpuSeconds(pid) ?? NaN) * 1000,
        });
      });
      void child.exited.then((how) => {
        clearTimeout(timer);
        reject(new Error(`serve exited (${how}) before listening:\n${child.output.toString()}`));
      });
    });
  } finally {
    await ctx.children.stop(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

const ms = (n: number): string => Math.round(n).toLocaleString('en-US');

export const importTimeSection: Section = {
  name: 'import-time',
  description:
    'what `serve` (ROLE=all, FEED=simulator, embedded store) imports on its main thread, not started: dist/src/cli.js against the bundle dist/bundle/cli.js (npm start), interleaved',
  async run(ctx): Promise<SectionResult> {
    const runs = envNumber('BENCH_IMPORT_RUNS', 9, 1, true);
    const loadStart = loadavg()[0]!.toFixed(1);
    // `npm run bench` bundled already; this only checks (and rebuilds a stale bundle when run on its own).
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle.mjs')], { cwd: ROOT, stdio: 'inherit' });
    const alone: Variant = {
      name: 'node alone',
      args: [
        '-e',
        'const c = process.cpuUsage(); console.log(JSON.stringify({ ms: performance.now(), cpuMs: (c.user + c.system) / 1000 }))',
      ],
    };
    const unbundled: Variant = {
      name: 'unbundled dist/src/cli.js',
      args: [join(ROOT, 'dist/src/cli.js'), 'import-serve'],
    };
    const bundled: Variant = {
      name: 'bundle dist/bundle/cli.js',
      args: [join(ROOT, 'dist/bundle/cli.js'), 'import-serve'],
    };
    const variants = [alone, unbundled, bundled];
    const samples = new Map<Variant, Sample[]>(variants.map((v) => [v, []]));
    // One run of each first, not recorded: the files into the page cache.
    for (const v of variants) await sample(v, ctx);
    for (let r = 0; r < runs; r++) {
      // Alternating order, so a machine that slows down during the section weighs on both builds.
      const order = r % 2 === 0 ? variants : [...variants].reverse();
      for (const v of order) samples.get(v)!.push(await sample(v, ctx));
      const last = (v: Variant): Sample => samples.get(v)!.at(-1)!;
      ctx.log(
        `[import-time] run ${r + 1}/${runs}: unbundled ${ms(last(unbundled).ms)} ms (CPU ${ms(last(unbundled).cpuMs)}), ` +
          `bundle ${ms(last(bundled).ms)} ms (CPU ${ms(last(bundled).cpuMs)}), node alone ${ms(last(alone).ms)} ms`,
      );
    }
    const counts = new Map<Variant, ModuleCount>();
    for (const v of [unbundled, bundled]) counts.set(v, await countModules(v, ctx));
    const listenRuns = envNumber('BENCH_IMPORT_LISTEN_RUNS', 5, 0, true);
    const listen = { unbundled: [] as ListenSample[], bundle: [] as ListenSample[] };
    for (let r = 0; r < listenRuns; r++) {
      const pair = [
        async () => listen.unbundled.push(await listenSample(unbundled.args[0]!, ctx)),
        async () => listen.bundle.push(await listenSample(bundled.args[0]!, ctx)),
      ];
      for (const go of r % 2 === 0 ? pair : pair.reverse()) await go();
      ctx.log(
        `[import-time] serve listening, run ${r + 1}/${listenRuns}: unbundled ${ms(listen.unbundled.at(-1)!.ms)} ms ` +
          `(main thread CPU ${ms(listen.unbundled.at(-1)!.mainCpuMs)}), bundle ${ms(listen.bundle.at(-1)!.ms)} ms ` +
          `(main thread CPU ${ms(listen.bundle.at(-1)!.mainCpuMs)})`,
      );
    }

    const med = (v: Variant, f: (s: Sample) => number): number => median(samples.get(v)!.map(f));
    const figures = (v: Variant) => ({
      wallMs: med(v, (s) => s.wallMs),
      ms: med(v, (s) => s.ms),
      cpuMs: med(v, (s) => s.cpuMs),
    });
    const [a, u, b] = [figures(alone), figures(unbundled), figures(bundled)];
    const countCell = (v: Variant): string[] => {
      const c = counts.get(v);
      return c === undefined
        ? ['', '']
        : [`${c.esm} (typebox ${c.typebox}, kysely ${c.kysely}, service ${c.service})`, String(c.commonjs)];
    };
    const grid = formatGrid(
      ['import-time', 'wall ms (spawn to exit)', 'ms at the end (process clock)', 'CPU ms', 'ES modules', 'CommonJS'],
      [
        [alone.name, ms(a.wallMs), ms(a.ms), ms(a.cpuMs), '', ''],
        [unbundled.name, ms(u.wallMs), ms(u.ms), ms(u.cpuMs), ...countCell(unbundled)],
        [bundled.name, ms(b.wallMs), ms(b.ms), ms(b.cpuMs), ...countCell(bundled)],
        [
          'bundle / unbundled',
          (b.wallMs / u.wallMs).toFixed(2),
          (b.ms / u.ms).toFixed(2),
          (b.cpuMs / u.cpuMs).toFixed(2),
          '',
          '',
        ],
      ],
      (i) => i === 0 || i >= 4,
    );
    const notes = [
      `import-time: medians of ${runs} interleaved runs each; a run is \`node <cli> import-serve\` (imports what serve loads with ` +
        'ROLE=all, FEED=simulator, no DATABASE_URL/REDIS_URL, and exits); "ms at the end" is the child\'s performance.now() ' +
        "after its imports (node's own start included: see node alone); modules counted in one more, hooked run",
      ...grid.split('\n'),
    ];
    if (listenRuns > 0) {
      const fig = (list: ListenSample[], f: (l: ListenSample) => number): number => median(list.map(f));
      const row = (name: string, list: ListenSample[]): string[] => [
        name,
        ms(fig(list, (l) => l.ms)),
        ms(fig(list, (l) => l.mainCpuMs)),
        ms(fig(list, (l) => l.processCpuMs)),
      ];
      const ratio = (f: (l: ListenSample) => number): string =>
        (fig(listen.bundle, f) / fig(listen.unbundled, f)).toFixed(2);
      notes.push(
        `import-time: \`serve\` itself (FEED=simulator, a new embedded store, PORT=0) from spawn to its "listening on" line, ` +
          `medians of ${listenRuns} alternating runs; CPU read from /proc then (the main thread; the process: its ` +
          'simulator and store threads too)',
        ...formatGrid(
          ['serve until listening', 'wall ms', 'main thread CPU ms', 'process CPU ms'],
          [
            row(unbundled.name, listen.unbundled),
            row(bundled.name, listen.bundle),
            ['bundle / unbundled', ratio((l) => l.ms), ratio((l) => l.mainCpuMs), ratio((l) => l.processCpuMs)],
          ],
          (i) => i === 0,
        ).split('\n'),
      );
    }
    notes.push(`import-time: load average ${loadStart} at the start, ${loadavg()[0]!.toFixed(1)} at the end`);
    return {
      rows: [],
      checks: [
        check('import-time', "import-time: the bundle's imports of serve, ms at the end", b.ms, '<=', TARGET_MS, 'ms'),
      ],
      notes,
      data: {
        runs,
        nodeAlone: { ...a, samples: samples.get(alone) },
        unbundled: { ...u, modules: counts.get(unbundled), samples: samples.get(unbundled) },
        bundle: { ...b, modules: counts.get(bundled), samples: samples.get(bundled) },
        ratio: { wallMs: b.wallMs / u.wallMs, ms: b.ms / u.ms, cpuMs: b.cpuMs / u.cpuMs },
        listen: { runs: listenRuns, unbundled: listen.unbundled, bundle: listen.bundle },
      },
    };
  },
};
