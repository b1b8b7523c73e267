#!/usr/bin/env node
// Bundles the compiled service (dist/src, tsc's output) with esbuild into dist/bundle/, what `npm start` runs: one file per
// entry point (the CLI and every worker thread or child process it starts) and the chunks they share, all in one folder.
// Rebuilt only when stale (a dist/src file, package-lock.json or this script changed); `--force` rebuilds anyway.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'dist', 'src');
const OUT = join(ROOT, 'dist', 'bundle');
const STAMP = join(OUT, '.bundle-stamp');

/**
 * Packages left to Node at run time (imported from node_modules as they are):
 * - better-sqlite3: a native addon (it finds its .node file beside its own sources);
 * - pg, pg-native, ioredis: only loaded with DATABASE_URL or REDIS_URL (lazy imports: nothing to gain);
 * - @fastify/swagger, @fastify/swagger-ui: read files beside their sources (package.json, the UI's static folder);
 * - pino: its transports start workers from files beside its sources (thread-stream).
 * The build fails when bundled code still names __dirname or __filename (see checkOutputs): such a package goes here.
 */
export const EXTERNAL = [
  'better-sqlite3',
  'pg',
  'pg-native',
  'ioredis',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'pino',
];

/** `new URL('./name.js', import.meta.url)`: how the service names a worker thread's or child process's entry file. */
const ENTRY_URL = /new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;

function jsFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...jsFiles(p));
    else if (e.name.endsWith('.js')) out.push(p);
  }
  return out.sort();
}

/**
 * The entry points: dist/src/cli.js and every file a module of dist/src starts by URL (workers, child processes). A
 * bundled module's `import.meta.url` is its output file's, so each such entry is emitted under its own file name in the
 * same folder as everything else (flat: the name must be `./name.js`, and names must not collide).
 */
export function entryPoints(src = SRC) {
  const entries = new Map([['cli', join(src, 'cli.js')]]);
  for (const file of jsFiles(src)) {
    for (const m of readFileSync(file, 'utf8').matchAll(ENTRY_URL)) {
      const spec = m[2];
      const where = relative(ROOT, file);
      if (!/^\.\/[^/]+\.js$/.test(spec)) {
        throw new Error(
          `${where}: new URL('${spec}', import.meta.url) must name a file beside it ('./name.js') to be bundled`,
        );
      }
      const target = join(dirname(file), spec);
      if (!existsSync(target)) throw new Error(`${where}: ${spec} does not exist beside it`);
      const name = basename(spec, '.js');
      const seen = entries.get(name);
      if (seen !== undefined && seen !== target) {
        throw new Error(`two bundle entries named ${name}.js: ${relative(ROOT, seen)} and ${relative(ROOT, target)}`);
      }
      entries.set(name, target);
    }
  }
  return entries;
}

/** What the bundle is made from: every dist/src file (path, size, mtime), the lockfile and this script. */
function stamp() {
  const h = createHash('sha1');
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const f of [join(ROOT, 'package-lock.json'), ...jsFiles(SRC)]) {
    const s = existsSync(f) ? statSync(f) : null;
    h.update(`${relative(ROOT, f)}\0${s?.size ?? -1}\0${s?.mtimeMs ?? -1}\n`);
  }
  return h.digest('hex');
}

/** Problems in the written bundle: a worker URL naming no output file, bundled code using __dirname or __filename. */
export function checkOutputs(dir) {
  const problems = [];
  const files = readdirSync(dir).filter((f) => f.endsWith('.js'));
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    for (const m of text.matchAll(ENTRY_URL)) {
      if (!files.includes(m[2].slice(2)))
        problems.push(`${f}: new URL('${m[2]}', import.meta.url) names no bundle file`);
    }
    // Comments may mention them; code using them would throw (an ES module has neither).
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (/^\s*(\*|\/\/|\/\*)/.test(line)) return;
      if (/(^|[^.\w$])__(dirname|filename)\b/.test(line)) problems.push(`${f}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  return problems;
}

/**
 * Builds dist/bundle unless it is current (or `force`); returns whether it built. The new bundle is written beside the
 * old one, checked, and swapped in at once: `npm start` never finds half a bundle, nor one that failed its checks.
 */
export async function bundle({ force = false, log = (line) => console.error(line) } = {}) {
  if (!existsSync(join(SRC, 'cli.js'))) throw new Error('dist/src/cli.js is missing: compile first (npm run build)');
  const current = stamp();
  if (!force && existsSync(join(OUT, 'cli.js')) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === current) {
    return false;
  }
  const started = performance.now();
  const { build } = await import('esbuild');
  const next = `${OUT}-next`;
  rmSync(next, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(entryPoints()),
    outdir: next,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    bundle: true,
    // Shared chunks keep lazy imports lazy (a role, a store engine or a producer this run does not use is never
    // loaded), and each module's code stays at its chunk's top level: one file per entry, every dynamic import
    // inlined as a function, took 1.3x the time and 1.5x the CPU to import what `serve` loads (bench/README.md).
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external: EXTERNAL,
    // Bundled CommonJS code calls require() (Node's modules, the externals): an ES module has none of its own.
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  // For esbuild's analyser (what each output holds), with the paths the bundle has once swapped in.
  writeFileSync(
    join(next, 'metafile.json'),
    JSON.stringify(result.metafile).replaceAll('dist/bundle-next/', 'dist/bundle/'),
  );
  const problems = checkOutputs(next);
  if (problems.length > 0) {
    rmSync(next, { recursive: true, force: true });
    throw new Error(
      `the bundle would not run as built:\n  ${problems.join('\n  ')}\n(see EXTERNAL in scripts/bundle.mjs)`,
    );
  }
  writeFileSync(join(next, '.bundle-stamp'), current);
  rmSync(OUT, { recursive: true, force: true });
  renameSync(next, OUT);
  const bytes = Object.entries(result.metafile.outputs).reduce((n, [f, o]) => (f.endsWith('.js') ? n + o.bytes : n), 0);
  log(
    `[bundle] dist/bundle: ${entryPoints().size} entries, ${(bytes / 1e6).toFixed(1)} MB, ` +
      `${Math.round(performance.now() - started)} ms`,
  );
  return true;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  bundle({ force: process.argv.includes('--force') }).catch((err) => {
    console.error(`[bundle] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
