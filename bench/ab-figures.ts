// A/B bench figures: the numbers of a bench run's results JSON, flattened, and each figure's medians and ratio over rounds.

/** One run's results file (`bench/results/latest.json`), as much of it as the A/B comparison reads. */
export interface RunResults {
  sections: Array<{
    name: string;
    rows?: Array<{ target: string; median: Record<string, unknown> }>;
    checks?: Array<{ label: string; value: number }>;
    data?: Record<string, unknown>;
  }>;
}

/**
 * Figures that lead the table, with a reader's name, in this order; every other figure both builds
 * report follows them (with `--all`). Paths are `section/where.in.the.json`.
 */
export const HEADLINES: ReadonlyArray<{ path: string; label: string; scale?: number }> = [
  { path: 'capacity/data.ticks.p50Ms', label: 'tick p50 (ms)' },
  { path: 'capacity/data.ticks.p90Ms', label: 'tick p90 (ms)' },
  { path: 'capacity/data.ticks.p99Ms', label: 'tick p99 (ms)' },
  { path: 'capacity/rows.service: live odds under ticks.requestsPerSec', label: 'live odds reads/s' },
  { path: 'capacity/rows.service: live odds under ticks.bytesPerSec', label: 'live odds MB/s', scale: 1e-6 },
  { path: 'capacity/rows.service: live odds under ticks.latencyP50Ms', label: 'read p50 (ms)' },
  { path: 'capacity/rows.service: live odds under ticks.latencyP99Ms', label: 'read p99 (ms)' },
  { path: 'capacity/rows.service: live odds under ticks.serverCpuPercent', label: 'service CPU (%)' },
  { path: 'capacity/data.memory.maxWhileTickingBytes', label: 'RSS max while ticking (MB)', scale: 1 / 2 ** 20 },
  { path: 'capacity/data.memory.peakBytes', label: 'RSS peak, whole run (MB)', scale: 1 / 2 ** 20 },
  { path: 'capacity/data.load.eventsPerSec', label: 'load (events/s)' },
  { path: 'capacity/data.load.ms', label: 'load (s)', scale: 1e-3 },
  { path: 'capacity/data.ticks.recorded', label: 'ticks recorded' },
  { path: 'capacity/data.restart.readyMs', label: 'restart: ready with the whole world (s)', scale: 1e-3 },
  { path: 'capacity/data.restart.rssBytes', label: 'restart: RSS when ready (MB)', scale: 1 / 2 ** 20 },
  { path: 'stream/data.runs.0.latencyP50Ms', label: 'stream: change-to-client p50 (ms)' },
  { path: 'stream/data.runs.0.latencyP99Ms', label: 'stream: change-to-client p99 (ms)' },
  { path: 'stream/data.runs.0.eventsPerSec', label: 'stream: events delivered/s' },
  { path: 'stream/data.runs.0.bytesPerSec', label: 'stream: MB/s delivered', scale: 1e-6 },
  { path: 'stream/data.runs.0.bytesRatio', label: 'stream: bytes/s, service/raw' },
  { path: 'stream/data.runs.0.tickP50WithMs', label: 'stream: tick p50 with clients (ms)' },
  { path: 'stream/data.runs.0.tickP99WithMs', label: 'stream: tick p99 with clients (ms)' },
  { path: 'stream/data.runs.0.tickP99WithoutMs', label: 'stream: tick p99 without (ms)' },
  { path: 'stream/data.runs.0.tickRatio', label: 'stream: tick p99 with/without' },
  { path: 'stream/data.runs.0.serviceCpuPercent', label: 'stream: service CPU (%)' },
  { path: 'stream/data.runs.0.rssMaxMb', label: 'stream: RSS max (MB)' },
  { path: 'stream/data.runs.0.streamCpuMsPerMb', label: 'stream: CPU ms per MB delivered' },
  { path: 'stream/data.runs.0.rawCpuMsPerMb', label: 'stream: raw node:http CPU ms per MB' },
];

/** Arrays longer than this are records (every tick, every memory sample), not figures. */
const MAX_ARRAY = 16;

/**
 * Every finite number of a run's results, keyed `section/path`: a row's median figures under
 * `rows.<target>.`, a check under `checks.<label>`, and every numeric leaf of `data` (arrays of
 * records skipped). Settings are kept: a figure whose settings differ between builds shows it.
 */
export function flattenFigures(results: RunResults): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (prefix: string, value: unknown): void => {
    if (typeof value === 'number') {
      if (Number.isFinite(value)) out.set(prefix, value);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      if (value.length > MAX_ARRAY) return;
      value.forEach((v, i) => walk(`${prefix}.${i}`, v));
      return;
    }
    for (const [k, v] of Object.entries(value)) walk(`${prefix}.${k}`, v);
  };
  for (const s of results.sections) {
    for (const row of s.rows ?? []) walk(`${s.name}/rows.${row.target}`, row.median);
    for (const c of s.checks ?? []) walk(`${s.name}/checks.${c.label}`, c.value);
    if (s.data !== undefined) walk(`${s.name}/data`, s.data);
  }
  return out;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface FigureComparison {
  path: string;
  label: string;
  /** Each round's value, in round order (NaN where a round did not report it). */
  reference: number[];
  candidate: number[];
  referenceMedian: number;
  candidateMedian: number;
  /** candidate median / reference median (NaN when the reference's is 0). */
  ratio: number;
}

/**
 * Headlines reported by either build, in their order, then (with `all`) every other figure both
 * builds reported in at least one round each, by path. Values are scaled for reading; the ratio does not depend on it.
 */
export function compareRounds(
  reference: readonly RunResults[],
  candidate: readonly RunResults[],
  all: boolean,
): FigureComparison[] {
  const ref = reference.map(flattenFigures);
  const cand = candidate.map(flattenFigures);
  const seen = (maps: Map<string, number>[], path: string): boolean => maps.some((m) => m.has(path));
  const paths = new Set<string>();
  for (const m of [...ref, ...cand]) for (const p of m.keys()) if (seen(ref, p) && seen(cand, p)) paths.add(p);
  // A headline one build does not report (a figure newer than the reference) is still shown, without a ratio.
  const headline = HEADLINES.filter((h) => paths.has(h.path) || seen(ref, h.path) || seen(cand, h.path));
  const rest = all
    ? [...paths]
        .filter((p) => !HEADLINES.some((h) => h.path === p))
        .sort()
        .map((p) => ({ path: p, label: p, scale: 1 }))
    : [];
  return [...headline, ...rest].map(({ path, label, scale = 1 }) => {
    const values = (maps: Map<string, number>[]): number[] => maps.map((m) => (m.get(path) ?? Number.NaN) * scale);
    const r = values(ref);
    const c = values(cand);
    const referenceMedian = median(r.filter((v) => !Number.isNaN(v)));
    const candidateMedian = median(c.filter((v) => !Number.isNaN(v)));
    return {
      path,
      label,
      reference: r,
      candidate: c,
      referenceMedian,
      candidateMedian,
      ratio: referenceMedian === 0 ? Number.NaN : candidateMedian / referenceMedian,
    };
  });
}
