#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with Node's test runner; extra args filter by path.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir) {
  let out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(find(p));
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = find('dist/test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files found under dist/test (did the build run?)');
  process.exit(1);
}
// Longest first, by the durations of an earlier full run (scripts/test-times.json): files run two at
// a time in the order given, and a long file started last would run alone while the other slot
// idles (in sorted order the suite took ~13 min of which ~2 were such tails). A file with no
// recorded time (a new one) starts first, since nothing says it is short.
const timesFile = 'scripts/test-times.json';
const times = existsSync(timesFile) ? JSON.parse(readFileSync(timesFile, 'utf8')) : {};
const known = (f) => (typeof times[f] === 'number' ? times[f] : Infinity);
files.sort((a, b) => known(b) - known(a) || a.localeCompare(b));
// Each run records its files' times in test-artifacts/test-times.json (git-ignored); copy it over
// scripts/test-times.json after adding or changing slow tests.
mkdirSync('test-artifacts', { recursive: true });
// Files run two at a time: most of the suite waits on sockets, child processes and timers rather
// than the CPU, so two files share a 2-core machine well (TEST_CONCURRENCY overrides; 1: one by one).
const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY ?? 2) || 1);
const args = [
  '--test',
  `--test-concurrency=${concurrency}`,
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  '--test-reporter=./scripts/test-timings-reporter.mjs',
  '--test-reporter-destination=stdout',
  ...files,
];
const r = spawnSync(process.execPath, args, {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test', TEST_TIMINGS_OUT: process.env.TEST_TIMINGS_OUT ?? 'test-artifacts/test-times.json' },
});
process.exit(r.status ?? 1);
