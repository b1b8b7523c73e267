// The realism report: runs the simulator on a fast injected clock, measures what it emits, prints it beside the references.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Simulator } from '../simulator.js';
import { figuresOf, RealismCollector, type SportFigures } from './figures.js';
import { defaultReferences, nflFigures, referenceTable, soccerSeasonFigures, type Reference } from './references.js';

export interface RealismOptions {
  seed: number;
  /** World days to simulate after the start. */
  days: number;
  /** Only these sports; all when absent. */
  sports?: readonly string[];
  /** Only leagues of these tiers; all when absent. */
  tiers?: ReadonlyArray<1 | 2 | 3>;
  /** Simulated epoch ms of the start (a fixed date keeps the report reproducible). */
  startAt?: number;
  /** Simulated step between two looks at the live books (ms). */
  sampleMs?: number;
  /** Figures per sport and league tier (`soccer t1`) instead of per sport. */
  byTier?: boolean;
}

export interface RealismRow {
  sport: string;
  figure: string;
  simulated: number | null;
  reference: Reference;
  pass: boolean;
  /**
   * `pass` within the band; `noise` outside it by no more than two standard errors of a share of
   * `sample`, or of a mean over `sample` finals (a short run's few finals or series: a longer run
   * decides it); `miss` otherwise.
   */
  verdict: 'pass' | 'noise' | 'miss';
  /** What a share figure is a proportion of (finals, series, sets, books), or a mean is over (finals), or null. */
  sample: number | null;
}

/** The count a share of outcomes is taken over; null for a figure that is not such a share. */
function sampleOf(f: SportFigures, figure: string): number | null {
  switch (figure) {
    case 'homeShare':
    case 'drawShare':
    case 'awayShare':
    case 'nilNilShare':
    case 'bigMarginShare':
    case 'overtimeShare':
    case 'shootoutShare':
    case 'straightSetsShare':
    case 'pointsPerGame':
      return f.finals;
    case 'deciderShare':
      return f.series;
    case 'tieBreakSetShare':
      return f.sets;
    case 'favUnder105':
    case 'favUnder115':
    case 'overroundOutShare':
      return f.books;
    default:
      return null;
  }
}

/**
 * The standard deviation of one draw of a figure, for its standard error over `sample` draws: a
 * mean's from the games' own spread, a share's (binomial) at the band's edge; null when unknown.
 */
function spreadOf(f: SportFigures, figure: string, edge: number): number | null {
  if (figure === 'pointsPerGame') return f.pointsSd;
  return Math.sqrt(edge * (1 - edge));
}

function verdictOf(f: SportFigures, figure: string, r: Reference, n: number | null): RealismRow['verdict'] {
  const v = f[figure as keyof SportFigures] as number | null;
  if (v === null) return 'miss';
  if (v >= r.low && v <= r.high) return 'pass';
  if (n === null || n <= 0) return 'miss';
  // The band's nearer edge, and the standard error of the figure over n draws there.
  const edge = v < r.low ? r.low : r.high;
  const sd = spreadOf(f, figure, edge);
  if (sd === null) return 'miss';
  return Math.abs(v - edge) <= (2 * sd) / Math.sqrt(n) ? 'noise' : 'miss';
}

/** Runs the simulator for `days` world days and returns the figures of every sport. */
export function simulateFigures(opts: RealismOptions): Map<string, SportFigures> {
  const startAt = opts.startAt ?? Date.UTC(2026, 0, 10);
  const sampleMs = opts.sampleMs ?? 60_000;
  const sim = new Simulator({
    seed: opts.seed,
    speed: 60,
    startAt,
    config: {
      outrights: false,
      ...(opts.sports !== undefined ? { sports: opts.sports } : {}),
      ...(opts.tiers !== undefined ? { tiers: opts.tiers } : {}),
    },
  });
  const c = new RealismCollector(opts.byTier ?? false);
  const end = startAt + opts.days * 86_400_000;
  for (let t = startAt; t <= end; t += sampleMs) {
    c.add(sim.advance(t));
    c.sample();
  }
  const out = new Map<string, SportFigures>();
  for (const [sport, tally] of [...c.tallies].sort(([a], [b]) => a.localeCompare(b))) out.set(sport, figuresOf(tally));
  return out;
}

/** The reference table from the data files under `dataDir` (openfootball/*.json, nfl/*.csv). */
export async function loadReferences(dataDir: string): Promise<Map<string, Reference[]>> {
  const ofDir = join(dataDir, 'openfootball');
  const seasons = await Promise.all(
    (await readdir(ofDir))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map(async (f) => JSON.parse(await readFile(join(ofDir, f), 'utf8')) as unknown),
  );
  const nfl = await readFile(join(dataDir, 'nfl', 'nfl-2012-2022-scores-lines.csv'), 'utf8');
  return referenceTable(soccerSeasonFigures(seasons), nflFigures(nfl));
}

/** Simulated figures beside their references; a missing simulated figure is a miss. */
export function compare(
  figures: ReadonlyMap<string, SportFigures>,
  refs: ReadonlyMap<string, Reference[]>,
): RealismRow[] {
  const rows: RealismRow[] = [];
  for (const [sport, f] of figures) {
    // A league with references of its own (`basketball NBA`), else its sport's (`soccer t1` → soccer).
    for (const r of refs.get(sport) ?? refs.get(sport.split(' ')[0]!) ?? defaultReferences()) {
      const v = f[r.figure];
      const sample = sampleOf(f, r.figure);
      const verdict = verdictOf(f, r.figure, r, sample);
      rows.push({ sport, figure: r.figure, simulated: v, reference: r, pass: verdict === 'pass', verdict, sample });
    }
  }
  return rows;
}

const fmt = (x: number | null): string =>
  x === null ? '-' : Math.abs(x) >= 10 ? x.toFixed(1) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toFixed(3);

/** A plain-text table: one block per sport, with sample sizes in its header. */
export function formatReport(figures: ReadonlyMap<string, SportFigures>, rows: readonly RealismRow[]): string {
  const lines: string[] = [];
  for (const [sport, f] of figures) {
    // Series are few in a short run (best-of-one tiers are left out): shown, so a decider share of
    // 4 series is read as such.
    const series = f.series > 0 ? `, series ${f.series}` : '';
    lines.push(`${sport}  (finals ${f.finals}${series}, prematch books ${f.books}, live samples ${f.liveSamples})`);
    for (const r of rows.filter((x) => x.sport === sport)) {
      const band = `[${fmt(r.reference.low)}, ${fmt(r.reference.high)}]`;
      const n = r.verdict === 'noise' ? ` (n=${r.sample ?? 0}: within 2 s.e. of the band)` : '';
      lines.push(
        `  ${r.figure.padEnd(18)} ${fmt(r.simulated).padStart(8)}  ref ${fmt(r.reference.value).padStart(7)} ${band.padEnd(17)} ${r.verdict.toUpperCase().padEnd(5)} ${r.reference.source}${n}`,
      );
    }
  }
  const pass = rows.filter((r) => r.verdict === 'pass').length;
  const noise = rows.filter((r) => r.verdict === 'noise').length;
  lines.push(
    `${pass}/${rows.length} figures within their bands; ${noise} more outside only by sampling error` +
      ' (within two standard errors of the band: a longer run, --days, decides them)',
  );
  return lines.join('\n');
}
