// Benchmark runner: `npm run bench [-- section…]` runs the named sections (all by default), prints a report, writes JSON.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { accessLogSection } from './access-log.js';
import { codedReadSections, listSection, oddsSection } from './api-read.js';
import { CAPACITY_USAGE, capacitySection } from './capacity.js';
import { codingsSection } from './codings.js';
import { Children } from './children.js';
import { envNumber, UsageError } from './env.js';
import { HISTORY_USAGE, historySection, historyTickSection } from './history.js';
import { IMPORT_TIME_USAGE, importTimeSection } from './import-time.js';
import { oddsRedisSection } from './odds-redis.js';
import { formatChecks, formatTable } from './report.js';
import type { BenchContext, BenchSettings, Section, SectionResult } from './section.js';
import { gradingSection } from './settlement-grading.js';
import { settlementPagePgSection, settlementPageSection } from './settlement-page.js';
import { settleSection } from './settlement-settle.js';
import { streamFlushSection } from './stream-flush.js';
import { streamPositionsSection } from './stream-positions.js';
import { STREAM_USAGE, streamSection } from './stream.js';

/**
 * Every section, in the order they run. New benchmarks (simulator, settlement…) are added here.
 * Opt-in sections (minutes long) run only when named.
 */
const SECTIONS: readonly Section[] = [
  oddsSection,
  listSection,
  ...codedReadSections,
  codingsSection,
  accessLogSection,
  oddsRedisSection,
  gradingSection,
  settleSection,
  importTimeSection,
  settlementPageSection,
  settlementPagePgSection,
  streamPositionsSection,
  streamFlushSection,
  capacitySection,
  streamSection,
  historySection,
  historyTickSection,
];

const RESULTS_DIR = join(import.meta.dirname, '..', '..', 'bench', 'results');

function settingsFromEnv(): BenchSettings {
  return {
    durationSeconds: envNumber('BENCH_DURATION', 8, 1, false),
    warmupSeconds: envNumber('BENCH_WARMUP', 2, 0, false),
    runs: envNumber('BENCH_RUNS', 2, 1, true),
    connections: envNumber('BENCH_CONNECTIONS', 50, 1, true),
    pipelining: 1,
    serviceNodeArgs: (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter((a) => a !== ''),
  };
}

function usage(): string {
  const lines = SECTIONS.map((s) => `  ${s.name.padEnd(18)} ${s.optIn === true ? '(opt-in) ' : ''}${s.description}`);
  return [
    'usage: npm run bench [-- section…]   (no section: every section but the opt-in ones)',
    '       npm run bench -- ab <section…> --against <commit> [--rounds N] [--all]   (same-session A/B; -- ab --help)',
    '',
    'sections:',
    ...lines,
    '',
    'environment: BENCH_DURATION (s per run, default 8), BENCH_WARMUP (s before each run, default 2),',
    '             BENCH_RUNS (runs per target, default 2), BENCH_CONNECTIONS (default 50),',
    "             BENCH_SERVICE_NODE_ARGS (node flags for the service, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'),",
    "             BENCH_CHILD_LOG_DIR (keep each child process's whole output there, e.g. for --trace-gc),",
    "             BENCH_SERVICE_LOG_LEVEL (default warn; debug logs each feed body's receive/parse/apply times)",
    ...CAPACITY_USAGE,
    ...STREAM_USAGE,
    ...HISTORY_USAGE,
    ...IMPORT_TIME_USAGE,
  ].join('\n');
}

function selectSections(args: string[]): Section[] {
  if (args.length === 0) return SECTIONS.filter((s) => s.optIn !== true);
  const unknown = args.filter((a) => !SECTIONS.some((s) => s.name === a));
  if (unknown.length > 0) throw new UsageError(`unknown section(s): ${unknown.join(', ')}\n\n${usage()}`);
  // Keep the registry's order, so shared set-ups are built by the first section that needs them.
  return SECTIONS.filter((s) => args.includes(s.name));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // `ab`: the same sections with this build and a reference commit's, alternately (bench/ab.ts).
  if (args[0] === 'ab') {
    const { runAb } = await import('./ab.js');
    await runAb(args.slice(1), join(import.meta.dirname, '..', '..'));
    return;
  }
  if (args.includes('-h') || args.includes('--help')) {
    console.log(usage());
    return;
  }
  const sections = selectSections(args);
  const settings = settingsFromEnv();
  const children = new Children();
  const tempDir = await mkdtemp(join(tmpdir(), 'sports-bench-'));
  children.trackDir(tempDir);

  const sharedResources = new Map<string, Promise<unknown>>();
  const ctx: BenchContext = {
    settings,
    children,
    tempDir,
    shared<T>(name: string, build: () => Promise<T>): Promise<T> {
      let p = sharedResources.get(name);
      if (p === undefined) sharedResources.set(name, (p = build()));
      return p as Promise<T>;
    },
    log: (line) => console.error(line),
  };

  const started = Date.now();
  const results: Array<{ section: Section; result: SectionResult }> = [];
  try {
    ctx.log(
      `bench: ${sections.map((s) => s.name).join(', ')} — ${settings.runs} run(s) per target of ${settings.durationSeconds} s ` +
        `after ${settings.warmupSeconds} s warm-up, ${settings.connections} connections, pipelining ${settings.pipelining}`,
    );
    for (const section of sections) {
      ctx.log(`\n== ${section.name}: ${section.description}`);
      results.push({ section, result: await section.run(ctx) });
    }
  } finally {
    await children.stopAll();
  }
  const seconds = (Date.now() - started) / 1000;

  console.log('');
  console.log(formatTable(results.flatMap((r) => r.result.rows)));
  console.log('');
  for (const r of results) for (const note of r.result.notes) console.log(note);
  const checks = results.flatMap((r) => r.result.checks);
  if (checks.length > 0) console.log(`\n${formatChecks(checks)}`);
  console.log(`\ntotal ${seconds.toFixed(1)} s`);

  await mkdir(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, 'latest.json');
  const cpu = cpus();
  const json = {
    date: new Date(started).toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: { model: cpu[0]?.model ?? 'unknown', count: cpu.length },
    settings,
    seconds,
    sections: results.map(({ section, result }) => ({
      name: section.name,
      description: section.description,
      ...result,
    })),
  };
  await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`results written to ${file}`);
}

main().catch((err: unknown) => {
  if (err instanceof UsageError) {
    console.error(err.message);
    process.exitCode = 2;
    return;
  }
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
