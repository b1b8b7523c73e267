// What a benchmark section is, what it reports, and the context the runner gives it.
import type { Children } from './children.js';
import type { LoadRun } from './measure.js';

export interface BenchSettings {
  /** Seconds of each measured run (BENCH_DURATION). */
  durationSeconds: number;
  /** Seconds of warm-up before each run (BENCH_WARMUP). */
  warmupSeconds: number;
  /** Runs per target, interleaved with its baseline (BENCH_RUNS). */
  runs: number;
  connections: number;
  pipelining: number;
  /** Node flags for service child processes (BENCH_SERVICE_NODE_ARGS, split on spaces), e.g. `--cpu-prof`. */
  serviceNodeArgs: string[];
}

export interface BenchContext {
  settings: BenchSettings;
  children: Children;
  /** A temp dir of this run, removed at the end. */
  tempDir: string;
  /**
   * A resource built once and shared by the sections that ask for it under the same name
   * (e.g. one service fed with one world for both the odds and the list sections).
   */
  shared<T>(name: string, build: () => Promise<T>): Promise<T>;
  /** Progress lines (stderr, so stdout holds only the report). */
  log(line: string): void;
}

/** One line of the results table: a target's median figures over its runs. */
export interface ResultRow {
  section: string;
  target: string;
  median: LoadRun;
  runs: LoadRun[];
}

/** A ratio or figure with a threshold: printed as PASS/MISS, never turned into an exit code. */
export interface TargetCheck {
  name: string;
  label: string;
  value: number;
  op: '>=' | '<=';
  threshold: number;
  pass: boolean;
  /** Printed after the value and the threshold (`ms`, `MB`); absent for ratios. */
  unit?: string;
}

export interface SectionResult {
  rows: ResultRow[];
  checks: TargetCheck[];
  /** Free-form facts worth printing (payload sizes, world size…). */
  notes: string[];
  /** Anything else for the JSON results. */
  data?: Record<string, unknown>;
}

export interface Section {
  name: string;
  description: string;
  /** Runs only when named on the command line (too long for every `npm run bench`). */
  optIn?: boolean;
  run(ctx: BenchContext): Promise<SectionResult>;
}

export function check(
  name: string,
  label: string,
  value: number,
  op: '>=' | '<=',
  threshold: number,
  unit?: string,
): TargetCheck {
  const pass = op === '>=' ? value >= threshold : value <= threshold;
  return { name, label, value, op, threshold, pass, ...(unit !== undefined ? { unit } : {}) };
}
