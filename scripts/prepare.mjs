#!/usr/bin/env node
// Makes `npm start` / `npm test` work on a fresh clone: installs dependencies if missing, then compiles.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!existsSync('node_modules/.package-lock.json') || !existsSync('node_modules/typescript')) {
  console.error(
    '[prepare] installing dependencies (first run; better-sqlite3 compiles from source, about two minutes)…',
  );
  run(npm, ['install', '--no-audit', '--no-fund']);
}
run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
