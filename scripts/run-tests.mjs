#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with Node's test runner, longest first, a few at a time; extra args filter by path.
import {
  accessSync,
  constants,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Transform } from 'node:stream';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

const ROOT = 'dist/test';
/** Each file's duration (seconds) in an earlier run, by its path under dist/test: the order files start in. */
const TIMINGS = 'scripts/test-timings.json';
/**
 * Fault and scale-out files start clusters of child processes, and their failover and freshness
 * bounds are wall-clock figures for a busy 2-core machine: one runs beside one other file at most.
 */
const NEAR_QUIET = ['faults/', 'scale/'];

function find(dir) {
  let out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(find(p));
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const args = process.argv.slice(2);
const record = args.includes('--record-timings');
const filters = args.filter((a) => a !== '--record-timings');
const name = (f) => relative(resolve(ROOT), resolve(f));
const files = find(ROOT)
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .map(name);
if (files.length === 0) {
  console.error(`no test files found under ${ROOT} (did the build run?)`);
  process.exit(1);
}

// Near-quiet files first, two at a time, then the rest: spread among the others (as by length),
// each held a slot empty whenever one ran, about 300 s of file time in all (the recorded times of
// 2026-11-29 replayed through these rules: 744 s to the end against 783 s). Within each group,
// longest first: a long file started late runs on alone while the other slots idle. A file with no
// recorded time (a new one) starts among the first of its group, since nothing says it is short.
const timings = existsSync(TIMINGS) ? JSON.parse(readFileSync(TIMINGS, 'utf8')) : {};
const expected = (f) => timings[f] ?? Infinity;
const nearQuiet = (f) => NEAR_QUIET.some((p) => f.startsWith(p));
files.sort((a, b) => Number(nearQuiet(b)) - Number(nearQuiet(a)) || expected(b) - expected(a) || a.localeCompare(b));

// Three at a time: most files wait on sockets, child processes, servers and timers much of the
// time, so a third keeps a 2-core machine's cores busy. TEST_CONCURRENCY overrides; 1: one by one.
const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY ?? 3) || 1);
process.env.NODE_ENV = 'test';
// Test files allocate fast (the simulator rebuilds each book it reprices, a thousand markets for a
// top soccer game): young-generation halves of up to 64 MB (V8's default is a fraction of it)
// collect less often, a fifth less CPU for a simulator file (GC was a quarter of it) for a few MB
// more memory. NODE_OPTIONS given to the runner come after, so they can set it otherwise.
process.env.NODE_OPTIONS = ['--max-semi-space-size=64', process.env.NODE_OPTIONS ?? ''].join(' ').trim();

/** Free space /dev/shm must have to be used (three files at once may each store a whole simulated world). */
const MIN_SHM_BYTES = 2 * 1024 ** 3;

/**
 * Test files put their data directories (SQLite files, logs) under the OS temp directory, and
 * every service a test starts migrates a fresh database: thousands of fsyncs a run, each waiting
 * on the disk (a few ms when idle, far longer when other work keeps it busy). Where a RAM-backed /dev/shm exists they
 * go there instead: an fsync there returns at once, and what a test reads back is the same (a file
 * outlives a killed process alike; only a machine crash would differ, and no test makes one).
 * TEST_TMPDIR picks another directory; TEST_TMPDIR=os keeps the OS default (also used when /dev/shm
 * has less than MIN_SHM_BYTES free).
 */
function testTmpdir() {
  const chosen = process.env.TEST_TMPDIR;
  if (chosen === 'os') return null;
  const parent = chosen ?? '/dev/shm';
  try {
    accessSync(parent, constants.W_OK);
    // A container's /dev/shm is often 64 MB: a file loading the simulated world would fill it.
    const { bavail, bsize } = statfsSync(parent);
    if (chosen === undefined && bavail * bsize < MIN_SHM_BYTES) return null;
    return mkdtempSync(join(parent, 'sds-tests-'));
  } catch {
    if (chosen !== undefined) throw new Error(`TEST_TMPDIR=${chosen} is not a writable directory`);
    return null;
  }
}
const tmp = testTmpdir();
if (tmp !== null) {
  process.env.TMPDIR = tmp;
  // What test files left behind there would otherwise hold RAM until the machine restarts.
  process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
}

const SUMMARY = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];
const totals = Object.fromEntries(SUMMARY.map((k) => [k, 0]));
const took = new Map();
const failedFiles = [];

/** Runs one file in a process of its own (as `node --test` does) and prints its report once it ends. */
async function runFile(file) {
  const t0 = performance.now();
  let failed = false;
  const stream = run({ files: [resolve(ROOT, file)] });
  stream.on('test:fail', (data) => {
    if (data.todo === undefined || data.todo === false) failed = true;
  });
  // The file's own count lines are summed into the run's, printed once at the end.
  const counts = new Transform({
    objectMode: true,
    transform(event, _encoding, done) {
      if (event.type === 'test:diagnostic' && event.data.nesting === 0) {
        const m = /^(\w+) [\d.]+$/.exec(event.data.message);
        if (m !== null && (SUMMARY.includes(m[1]) || m[1] === 'duration_ms')) {
          if (m[1] !== 'duration_ms') totals[m[1]] += Number(event.data.message.split(' ')[1]);
          return done();
        }
      }
      done(null, event);
    },
  });
  let report = '';
  for await (const chunk of stream.pipe(counts).compose(spec)) report += chunk;
  const ms = performance.now() - t0;
  took.set(file, ms);
  if (failed) failedFiles.push(file);
  process.stdout.write(`${report}# ${failed ? 'FAILED ' : ''}${file} (${(ms / 1000).toFixed(1)} s)\n\n`);
}

const started = performance.now();
const queue = [...files];
const running = new Set();
/** When each running file started (performance.now() ms). */
const startedAt = new Map();
/** Expected wall ms a running file has left (from its recorded time; Infinity when unknown). */
const left = (f) => Math.max(0, expected(f) * 1000 - (performance.now() - startedAt.get(f)));

/**
 * The queue index of the next file to start, or -1. In order while the rules allow. A near-quiet
 * file at the head waits until one other file at most runs; meanwhile a free slot takes a later,
 * ordinary file expected to end before that (backfill): before, the slot stayed empty, and the
 * head file starts no later for it (recorded times permitting).
 */
function pick() {
  if (queue.length === 0) return -1;
  const quietRunning = [...running].some(nearQuiet);
  const limit = quietRunning || nearQuiet(queue[0]) ? Math.min(2, concurrency) : concurrency;
  if (running.size < limit) return 0;
  if (quietRunning || running.size >= concurrency) return -1;
  // The head is near-quiet: it can start once all but one running file end.
  const ends = [...running].map(left).sort((a, b) => a - b);
  const shadow = ends[running.size - 2];
  return queue.findIndex((f) => !nearQuiet(f) && Number.isFinite(expected(f)) && expected(f) * 1000 <= shadow);
}

await new Promise((allDone) => {
  // Starts files while the rules allow: `concurrency` at most, two while a near-quiet one runs.
  const fill = () => {
    for (let i = pick(); i >= 0; i = pick()) {
      const [next] = queue.splice(i, 1);
      running.add(next);
      startedAt.set(next, performance.now());
      runFile(next)
        .catch((err) => {
          failedFiles.push(next);
          console.error(`# ${next}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        })
        .finally(() => {
          running.delete(next);
          fill();
        });
    }
    if (queue.length === 0 && running.size === 0) allDone();
  };
  fill();
});

for (const k of SUMMARY) console.log(`ℹ ${k} ${totals[k]}`);
console.log(`ℹ duration_ms ${(performance.now() - started).toFixed(0)}`);
if (failedFiles.length > 0) console.log(`\nfailed files:\n${failedFiles.map((f) => `  ${f}`).join('\n')}`);
const slowest = [...took].sort((a, b) => b[1] - a[1]).slice(0, 10);
console.log(`\nslowest files (of ${took.size}, ${concurrency} at a time):`);
for (const [f, ms] of slowest) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${f}`);

if (record) {
  // Merged into the committed times; files that are gone are forgotten.
  const all = new Set(find(ROOT).map(name));
  const merged = { ...timings, ...Object.fromEntries([...took].map(([f, ms]) => [f, ms / 1000])) };
  const next = Object.entries(merged)
    .filter(([f]) => all.has(f))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([f, s]) => [f, Math.round(s * 10) / 10]);
  writeFileSync(TIMINGS, JSON.stringify(Object.fromEntries(next), null, 2) + '\n');
  console.log(`recorded ${took.size} file times in ${TIMINGS}`);
}
process.exit(failedFiles.length > 0 ? 1 : 0);
