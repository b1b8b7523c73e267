#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with Node's test runner, longest first; extra args filter by path.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

const ROOT = 'dist/test';
/** Each file's duration (seconds) in an earlier run, by its path under dist/test: the order files start in. */
const TIMINGS = 'scripts/test-timings.json';

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
const files = find(ROOT).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error(`no test files found under ${ROOT} (did the build run?)`);
  process.exit(1);
}

// Longest first: files run a few at a time in the order given, and a long file started late runs
// on alone while the other slots idle. A file with no recorded time (a new one) starts among the
// first, since nothing says it is short. (`node --test a b c` sorts its files: hence run() here.)
const name = (f) => relative(resolve(ROOT), resolve(f));
const timings = existsSync(TIMINGS) ? JSON.parse(readFileSync(TIMINGS, 'utf8')) : {};
const expected = (f) => timings[name(f)] ?? Infinity;
files.sort((a, b) => expected(b) - expected(a) || a.localeCompare(b));

// Three at a time: most files wait on sockets, child processes, servers and timers much of the
// time, so a third keeps a 2-core machine's cores busy (the whole suite ~9 min instead of ~16 min at
// two, on a machine shared with other work). TEST_CONCURRENCY overrides; 1: one by one.
const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY ?? 3) || 1);
process.env.NODE_ENV = 'test';

const took = new Map();
let failed = false;
const stream = run({ files: files.map((f) => resolve(f)), concurrency });
stream.on('test:fail', (data) => {
  if (data.todo === undefined || data.todo === false) failed = true;
});
stream.on('test:complete', (data) => {
  // A file's own entry (nesting 0, named by its path) carries how long its process ran.
  if (data.nesting === 0 && data.name === data.file) took.set(name(data.file), data.details.duration_ms);
});
const out = stream.compose(spec);
out.pipe(process.stdout);
await new Promise((done) => out.on('end', done));

const slowest = [...took].sort((a, b) => b[1] - a[1]).slice(0, 10);
console.log(`\nslowest files (of ${took.size}, ${concurrency} at a time):`);
for (const [f, ms] of slowest) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${f}`);

if (record) {
  // Merged into the committed times; a run of the whole suite also forgets files that are gone.
  const all = new Set(find(ROOT).map(name));
  const next = {};
  for (const [f, s] of Object.entries({
    ...timings,
    ...Object.fromEntries([...took].map(([f, ms]) => [f, ms / 1000])),
  }))
    if (all.has(f)) next[f] = Math.round(s * 10) / 10;
  const sorted = Object.fromEntries(Object.entries(next).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(TIMINGS, JSON.stringify(sorted, null, 2) + '\n');
  console.log(`recorded ${took.size} file times in ${TIMINGS}`);
}
process.exit(failed ? 1 : 0);
