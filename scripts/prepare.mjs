#!/usr/bin/env node
// Makes `npm start` / `npm test` work on a fresh clone: installs dependencies if missing, compiles unless dist is current,
// then bundles dist/src into dist/bundle (what `npm start` runs) unless the bundle is current.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const STAMP = 'dist/.build-stamp';

/**
 * Runs a step with its own output, and says every 10 s that it is still at it (npm's install and
 * tsc can each be silent for a minute or more); the time it took at the end.
 */
async function run(what, cmd, args) {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  console.error(`[prepare] ${what}…`);
  const timer = setInterval(() => console.error(`[prepare] ${what}: ${seconds()} s so far`), 10_000);
  const status = await new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });
  clearInterval(timer);
  if (status !== 0) {
    console.error(`[prepare] ${what} failed after ${seconds()} s`);
    process.exit(status);
  }
  console.error(`[prepare] ${what}: done in ${seconds()} s`);
}

/** Every input of the build (path, size, mtime): a stat each, no reading. */
function inputs() {
  const files = ['tsconfig.json', 'package.json', 'package-lock.json'];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        // sdk/ may hold its own install and build output: not inputs of this build.
        if (e.name !== 'node_modules' && e.name !== 'dist') walk(p);
      } else if (e.name.endsWith('.ts')) files.push(p);
    }
  };
  for (const dir of ['src', 'test', 'bench', 'chaos', 'sdk', 'examples']) walk(dir);
  const h = createHash('sha1');
  for (const f of files.sort()) {
    const s = existsSync(f) ? statSync(f) : null;
    h.update(`${f}\0${s?.size ?? -1}\0${s?.mtimeMs ?? -1}\n`);
  }
  return h.digest('hex');
}

// esbuild too: a checkout installed before the bundle came has node_modules without it.
const tools = ['node_modules/.package-lock.json', 'node_modules/typescript', 'node_modules/esbuild'];
if (!tools.every((f) => existsSync(f))) {
  // Measured on a fresh clone of this project's 2-core machine: ~1-5 min, most of it compiling
  // better-sqlite3 (the longer figure with other work on the machine).
  await run('installing dependencies (first run; better-sqlite3 compiles from source: a few minutes)', npm, [
    'install',
    '--no-audit',
    '--no-fund',
  ]);
}
const stamp = inputs();
const current = existsSync('dist/src/cli.js') && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === stamp;
if (!current) {
  await run('compiling TypeScript (tsc)', process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
  writeFileSync(STAMP, stamp);
} else {
  console.error('[prepare] dist is current: no build');
}
// The bundle (scripts/bundle.mjs) checks its own inputs: dist/src as just compiled, the lockfile, its recipe.
const { bundle } = await import('./bundle.mjs');
await bundle().catch((err) => {
  console.error(`[prepare] bundling failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
