// A/B bench: the reference commit checked out in a git worktree of its own, installed and built once, reused by later runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { UsageError } from './env.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function git(repo: string, args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The full hash of `ref` in `repo`, or a usage error naming it. */
export function resolveCommit(repo: string, ref: string): string {
  try {
    return git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new UsageError(`--against: '${ref}' is no commit of this repository`);
  }
}

function step(log: (line: string) => void, what: string, cmd: string, args: string[], cwd: string): void {
  const started = Date.now();
  log(`[ab] ${what}…`);
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${what} failed (${cmd} ${args.join(' ')} in ${cwd}: exit ${String(r.status)})`);
  log(`[ab] ${what}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function versionOf(dir: string, pkg: string): string | null {
  const file = join(dir, 'node_modules', pkg, 'package.json');
  return existsSync(file) ? ((JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? null) : null;
}

/**
 * The worktree of `commit`, ready to bench: `BENCH_AB_DIR` (default: the system's temp dir) holds
 * one folder per commit. Dependencies are installed without install scripts; better-sqlite3's
 * native build is copied from this checkout when the versions match (it compiles for minutes
 * otherwise), then compiled with the commit's own TypeScript. A `.ab-ready` file marks a
 * finished build, so a second A/B against the same commit starts at once.
 */
export function referenceBuild(repo: string, commit: string, log: (line: string) => void): string {
  const root = process.env.BENCH_AB_DIR ?? join(tmpdir(), 'sports-data-ab');
  const dir = join(root, commit.slice(0, 12));
  const ready = join(dir, '.ab-ready');
  if (existsSync(ready) && readFileSync(ready, 'utf8').trim() === commit) {
    log(`[ab] reference ${commit.slice(0, 12)}: built in ${dir}`);
    return dir;
  }
  git(repo, ['worktree', 'prune']);
  if (existsSync(dir)) {
    try {
      git(repo, ['worktree', 'remove', '--force', dir]);
    } catch {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  git(repo, ['worktree', 'add', '--detach', '--force', dir, commit]);
  step(log, 'installing the reference’s dependencies', npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], dir);
  const ours = versionOf(repo, 'better-sqlite3');
  const theirs = versionOf(dir, 'better-sqlite3');
  const built = join(repo, 'node_modules', 'better-sqlite3', 'build');
  if (theirs !== null && theirs === ours && existsSync(built)) {
    cpSync(built, join(dir, 'node_modules', 'better-sqlite3', 'build'), { recursive: true });
    log(`[ab] better-sqlite3 ${theirs}: native build copied from this checkout`);
  } else if (theirs !== null) {
    step(log, `compiling better-sqlite3 ${theirs}`, npm, ['rebuild', 'better-sqlite3'], dir);
  }
  step(
    log,
    'compiling the reference',
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'],
    dir,
  );
  writeFileSync(ready, `${commit}\n`);
  return dir;
}

/** This checkout's commit, with `+` when its work tree differs from it (the A/B then measures uncommitted work). */
export function describeCheckout(repo: string): string {
  const head = git(repo, ['rev-parse', '--short=9', 'HEAD']);
  const dirty = git(repo, ['status', '--porcelain', '--untracked-files=no', '--', 'src', 'bench']) !== '';
  return dirty ? `${head}+` : head;
}

/** What a snapshot of this checkout leaves out: dependencies (linked instead), git, and run-time data. */
const NOT_COPIED = new Set(['node_modules', '.git', 'data', 'results', 'test-artifacts']);

/**
 * A copy of this checkout's build (dist, and the files it reads at run time such as the portal's
 * assets) with its node_modules linked: the A/B runs this copy, so that rebuilding the checkout
 * while an A/B runs (minutes to an hour) does not change the build being measured halfway.
 * The caller removes it.
 */
export function snapshotCheckout(repo: string): string {
  const root = process.env.BENCH_AB_DIR ?? join(tmpdir(), 'sports-data-ab');
  mkdirSync(root, { recursive: true });
  const dir = mkdtempSync(join(root, 'candidate-'));
  cpSync(repo, dir, {
    recursive: true,
    filter: (src) => relative(repo, src) === '' || !NOT_COPIED.has(basename(src)),
  });
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}
