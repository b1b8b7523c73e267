// `serve` as a person meets it: the world's load says how far along it is, the Try line comes once there is something to try, a restart says it restores.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
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
    child.kill('SIGTERM');
    assert.equal(await exited, 0, output);
    return { output, base };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

describe('cli: a first start that talks', () => {
  it('a fresh world: progress lines while it loads, then the key, the Try line and Ready; a restart says it restores and is ready at once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'serve-talk-'));
    try {
      // The whole default world (its size is the simulator's; the deadline is for a loaded machine).
      const first = await serveUntil(dataDir, /Ready in [\d.]+ s/, 240_000);
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
