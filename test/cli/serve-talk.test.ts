// `serve` as a person meets it: the world's load says how far along it is, the Try line comes once there is something to try, the README's curls answer, a restart says it restores.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const CLI = join(process.cwd(), 'dist/src/cli.js');
const DEMO = 'sk_serve_talk_demo_0123456789abcdef';

/** Runs `serve` until its output matches `until` (or it exits, or `timeoutMs` passes); then stops it. */
async function serveUntil(
  dataDir: string,
  until: RegExp,
  timeoutMs: number,
  whileUp: (base: string) => Promise<void> = async () => undefined,
): Promise<{ output: string; base: string }> {
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      FEED: 'simulator',
      ROLE: 'all',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DEMO_API_KEY: DEMO,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${until} within ${timeoutMs} ms:\n${output}`)), timeoutMs);
      const check = (): void => {
        if (!until.test(output)) return;
        clearTimeout(timer);
        resolve();
      };
      child.stdout.on('data', check);
      void exited.then(() => reject(new Error(`serve exited:\n${output}`)));
    });
    const base = /listening on (http:\/\/\S+)/.exec(output)?.[1] ?? '';
    // Ready means ready: the readiness probe agrees at once.
    const ready = await fetch(`${base}/readyz`);
    await ready.arrayBuffer();
    assert.equal(ready.status, 200, output);
    await whileUp(base);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, output);
    return { output, base };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/**
 * The README's curl block, run as written against the service (its ids and instants come from the
 * service, as the block says): every request answers 2xx. The stream (it never ends) and the admin
 * lines (no admin key here) are left out.
 */
async function runReadmeCurls(base: string): Promise<void> {
  const readme = await readFile(join(process.cwd(), 'README.md'), 'utf8');
  const start = readme.indexOf('```sh\nB=http://127.0.0.1:3000');
  assert.ok(start >= 0, "the README's curl block starts with B=http://127.0.0.1:3000");
  const block = readme.slice(start + 6, readme.indexOf('```', start + 6)).replaceAll('\\\n', ' ');
  const lines = block.split('\n').filter((l) => !l.startsWith('curl -N') && !l.includes('ADMIN_KEY'));
  const script = lines
    .map((l, n) => (l.startsWith('curl ') ? `curl -s -o /dev/null -w 'line ${n}: %{http_code}\\n' ${l.slice(5)}` : l))
    .join('\n')
    .replace('B=http://127.0.0.1:3000', `B=${base}`);
  const dir = await mkdtemp(join(tmpdir(), 'readme-curls-'));
  try {
    const r = spawnSync('bash', ['-c', script], { cwd: dir, env: { ...process.env, KEY: DEMO }, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const codes = [...r.stdout.matchAll(/line (\d+): (\d+)/g)];
    assert.ok(codes.length >= 25, r.stdout);
    for (const [, n, code] of codes) assert.match(code!, /^2\d\d$/, `README curl: ${lines[Number(n)]} -> ${code}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('cli: a first start that talks', () => {
  it('a fresh world: progress lines while it loads, then the key, the Try line and Ready; a restart says it restores and is ready at once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'serve-talk-'));
    try {
      // The whole default world (its size is the simulator's; the deadline is for a loaded machine).
      const first = await serveUntil(dataDir, /Ready in [\d.]+ s/, 240_000, runReadmeCurls);
      const out = first.output;
      const listening = out.indexOf('listening on');
      const loading = out.indexOf('Loading the simulated world');
      const loaded = /loading the simulated world: ([\d,]+) of ([\d,]+) events \(100%\) in [\d.]+ s/.exec(out);
      assert.ok(listening >= 0 && loading > listening, out);
      assert.ok(loaded !== null, `no last load line:\n${out}`);
      assert.equal(loaded[1], loaded[2]);
      const events = Number(loaded[2]!.replaceAll(',', ''));
      assert.ok(events > 0, out);
      // Not a TTY: plain progress lines, the first one as the load starts.
      assert.match(out, /loading the simulated world: [\d,]+ of [\d,]+ events \(\d+%\), [\d.]+ s/);
      // Before it, the simulator building that world is told too (it is seconds of silence otherwise).
      const building = /building the simulated world: [\d,]+ of ([\d,]+) games \(\d+%\), [\d.]+ s/.exec(out);
      const built = /building the simulated world: ([\d,]+) of ([\d,]+) games \(100%\) in [\d.]+ s/.exec(out);
      assert.ok(building !== null && built !== null, `no build lines:\n${out}`);
      assert.ok(loading < building.index && building.index < built.index, out);
      assert.equal(built[1], built[2]);
      assert.equal(built[2], building[1]);
      assert.ok(built.index < out.indexOf('loading the simulated world:'), out);
      const tryLine = out.indexOf('Try:');
      assert.ok(tryLine > loaded.index, `the Try line comes after the load:\n${out}`);
      assert.ok(out.indexOf('Ready in') > tryLine, out);

      // The stored world is served at once: no load to wait for; its restore is told when it is big.
      const again = await serveUntil(dataDir, /Ready in [\d.]+ s/, 120_000);
      assert.doesNotMatch(again.output, /Loading the simulated world/);
      if (events >= 500) {
        assert.match(again.output, /restoring the stored events: [\d,]+ of [\d,]+ events \(100%\) in [\d.]+ s/);
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
