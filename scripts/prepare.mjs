#!/usr/bin/env node
// Makes `npm start` / `npm test` work on a fresh clone: installs dependencies if missing, compiles unless dist is current,
// then bundles dist/src into dist/bundle (what `npm start` runs) unless the bundle is current.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const STAMP = 'dist/.build-stamp';

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
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
  for (const dir of ['src', 'test', 'bench', 'sdk', 'examples']) walk(dir);
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
  console.error(
    '[prepare] installing dependencies (first run; better-sqlite3 compiles from source, about two minutes)…',
  );
  run(npm, ['install', '--no-audit', '--no-fund']);
}
// tsc, even incremental, reads and checks every file (12-40 s here): when no input changed since
// the last good build, dist is current and a restart starts at once.
const stamp = inputs();
const current = existsSync('dist/src/cli.js') && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === stamp;
if (!current) {
  run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
  writeFileSync(STAMP, stamp);
}
// The bundle (scripts/bundle.mjs) checks its own inputs: dist/src as just compiled, the lockfile, its recipe.
const { bundle } = await import('./bundle.mjs');
await bundle().catch((err) => {
  console.error(`[prepare] bundling failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
