#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with Node's test runner; extra args filter by path.
import { readdirSync, statSync } from 'node:fs';
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
// Files run two at a time: most of the suite waits on sockets, child processes and timers rather
// than the CPU, so two files share a 2-core machine well (TEST_CONCURRENCY overrides; 1: one by one).
const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY ?? 2) || 1);
const args = ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files];
const r = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } });
process.exit(r.status ?? 1);
