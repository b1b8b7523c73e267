// Same-session A/B bench: `npm run bench -- ab <section…> --against <commit>` runs each build's own bench, alternately, and prints medians and ratios.
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { getPriority, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compareRounds, type FigureComparison, type RunResults } from './ab-figures.js';
import { describeCheckout, referenceBuild, resolveCommit, snapshotCheckout } from './ab-worktree.js';
import { UsageError } from './env.js';
import { formatGrid } from './report.js';

export const AB_USAGE = [
  'usage: npm run bench -- ab <section…> --against <commit> [--rounds N] [--all]',
  '',
  '  Builds <commit> in a git worktree (once; BENCH_AB_DIR, default the temp dir), then runs the',
  "  sections N times with each build's own bench (node dist/bench/run.js), alternating which",
  '  goes first (reference, this build; this build, reference; …), and prints every figure both',
  '  report: the median of each build and the ratio this build / reference. The environment',
  '  (BENCH_* knobs) is passed to both. --rounds: default 3. --all: every figure, not only the',
  '  headlines. Each round is saved in bench/results/ab-<sections>.json.',
];

interface Side {
  name: string;
  dir: string;
}

const num = (n: number, digits: number): string =>
  Number.isNaN(n) ? '?' : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Digits to print: fewer for large figures, so that a column of MB and ms stays readable. */
const digitsFor = (v: number): number => (Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2);

function runBench(side: Side, sections: string[], label: string, log: (l: string) => void): Promise<RunResults> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/bench/run.js', ...sections], {
      cwd: side.dir,
      env: process.env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let partial = '';
    child.stderr.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) log(`${label} ${l}`);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) {
        reject(new Error(`${label}: the bench exited with ${String(code)}`));
        return;
      }
      readFile(join(side.dir, 'bench', 'results', 'latest.json'), 'utf8')
        .then((text) => resolve(JSON.parse(text) as RunResults))
        .catch(reject);
    });
  });
}

export function formatComparison(figures: FigureComparison[], reference: string, candidate: string): string {
  const body = figures.map((f) => {
    const d = digitsFor(Math.max(Math.abs(f.referenceMedian), Math.abs(f.candidateMedian)));
    return [
      f.label,
      num(f.referenceMedian, d),
      num(f.candidateMedian, d),
      `${num(f.ratio, 2)}x`,
      f.reference.map((v) => num(v, d)).join(', '),
      f.candidate.map((v) => num(v, d)).join(', '),
    ];
  });
  return formatGrid(
    [
      'figure',
      `${reference} (median)`,
      `${candidate} (median)`,
      'ratio',
      `${reference}, each round`,
      `${candidate}, each round`,
    ],
    body,
    (i) => i === 0 || i >= 4,
  );
}

export async function runAb(argv: string[], repo: string): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      against: { type: 'string' },
      rounds: { type: 'string', default: '3' },
      all: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(AB_USAGE.join('\n'));
    return;
  }
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new UsageError(`--rounds must be an integer >= 1, got '${values.rounds}'`);
  if (values.against === undefined) throw new UsageError(`--against <commit> is required\n\n${AB_USAGE.join('\n')}`);
  if (positionals.length === 0) throw new UsageError(`name at least one section\n\n${AB_USAGE.join('\n')}`);
  const log = (line: string): void => console.error(line);

  const commit = resolveCommit(repo, values.against);
  const reference: Side = { name: commit.slice(0, 9), dir: referenceBuild(repo, commit, log) };
  const candidate: Side = { name: describeCheckout(repo), dir: snapshotCheckout(repo) };
  if (reference.name === candidate.name) candidate.name = `${candidate.name} (this)`;
  log(
    `[ab] this build (${candidate.name}) copied to ${candidate.dir}: rebuilding the checkout meanwhile changes nothing measured`,
  );
  try {
    await abRounds(values, positionals, rounds, reference, candidate, commit, repo, log);
  } finally {
    await rm(candidate.dir, { recursive: true, force: true });
  }
}

async function abRounds(
  values: { all: boolean },
  positionals: string[],
  rounds: number,
  reference: Side,
  candidate: Side,
  commit: string,
  repo: string,
  log: (line: string) => void,
): Promise<void> {
  const results = { reference: [] as RunResults[], candidate: [] as RunResults[] };
  const loads: string[] = [];
  const started = Date.now();
  const autogroup = await autogroupWarning();
  if (autogroup !== null) log(`[ab] ${autogroup}`);
  for (let r = 0; r < rounds; r++) {
    // Alternate who goes first, so that a machine slowing down over the session weighs on both.
    const order = r % 2 === 0 ? [reference, candidate] : [candidate, reference];
    for (const side of order) {
      const load = loadavg()[0] ?? 0;
      loads.push(`round ${r + 1} ${side.name}: ${num(load, 1)}`);
      log(`\n[ab] round ${r + 1} of ${rounds}: ${side.name} (${side.dir}), load average ${num(load, 1)}`);
      const res = await runBench(side, positionals, `[${side.name} r${r + 1}]`, log);
      (side === reference ? results.reference : results.candidate).push(res);
    }
  }
  const figures = compareRounds(results.reference, results.candidate, values.all);
  const minutes = (Date.now() - started) / 60_000;
  console.log('');
  console.log(
    `A/B ${positionals.join(' ')}: ${candidate.name} against ${reference.name}, ${rounds} round(s), ratio = ${candidate.name} / ${reference.name}, ${num(minutes, 1)} min`,
  );
  console.log(formatComparison(figures, reference.name, candidate.name));
  console.log(`\nload average (1 min) at each run's start: ${loads.join('; ')}`);
  const dir = join(repo, 'bench', 'results');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `ab-${positionals.join('-')}.json`);
  await writeFile(
    file,
    `${JSON.stringify({ date: new Date(started).toISOString(), reference: commit, candidate: candidate.name, rounds, loads, figures, results }, null, 2)}\n`,
  );
  console.log(`results written to ${file}`);
}

/**
 * Linux's autogroup scheduling shares the CPU between sessions (terminals, services) first, and
 * only then by nice value within each: `nice -n -15` then does not put the bench ahead of work
 * started from another session (seen on 2026-11-29: the reference's service got 38% of a core
 * beside three test runs at nice 19). Said when the A/B runs at a raised priority with it on.
 */
async function autogroupWarning(): Promise<string | null> {
  const on = await readFile('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').then(
    (t) => t.trim() === '1',
    () => false,
  );
  if (!on || getPriority() >= 0) return null;
  return (
    'autogroup scheduling is on (/proc/sys/kernel/sched_autogroup_enabled): a negative nice does not ' +
    "rank this A/B above other sessions' work; as root, `echo 0 > /proc/sys/kernel/sched_autogroup_enabled` " +
    'for the run, or keep the machine quiet'
  );
}
