// The bundle `npm start` runs (dist/bundle, built by scripts/bundle.mjs from dist/src): it serves, and each worker thread and child process it starts comes from the bundle's own files.
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { before, describe, test } from 'node:test';
import type { FrameWorkReply, FrameWorkRequest } from '../../src/api/stream/frame-work.js';
import { listeningPort } from '../helpers/child-service.js';
import { SseClient } from '../helpers/sse.js';
import { until } from '../helpers/until.js';

const ROOT = process.cwd();
const BUNDLE = join(ROOT, 'dist', 'bundle');
const SCRIPT = join(ROOT, 'scripts', 'bundle.mjs');
const DEMO = 'sk_bundle_demo_0123456789abcdef01';
const ADMIN = 'bundle_admin_0123456789abcdef0123';

interface BundleScript {
  entryPoints(): Map<string, string>;
  checkOutputs(dir: string): string[];
}

/** The processes whose parent is `pid`, with their command lines (Linux /proc). */
function childrenOf(pid: number): string[] {
  const out: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      out.push(readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' '));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe('the bundle (dist/bundle)', () => {
  // Rebuilt here only when stale (a test run right after tsc): what it tests is dist/src as compiled now.
  before(() => {
    execFileSync(process.execPath, [SCRIPT], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
  });

  test('every file the service starts by URL is an entry beside the CLI, and no bundled code needs __dirname', async () => {
    const script = (await import(pathToFileURL(SCRIPT).href)) as BundleScript;
    const entries = [...script.entryPoints().keys()].sort();
    assert.deepEqual(entries, ['cli', 'frame-worker', 'sqlite-writer-worker', 'stream-process-main', 'worker']);
    for (const e of entries) assert.ok(readdirSync(BUNDLE).includes(`${e}.js`), `${e}.js in dist/bundle`);
    assert.deepEqual(script.checkOutputs(BUNDLE), []);
  });

  test('the bundled frame worker answers a flush', async () => {
    const worker = new Worker(pathToFileURL(join(BUNDLE, 'frame-worker.js')));
    try {
      const reply = await new Promise<FrameWorkReply>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        const req: FrameWorkRequest = { seq: 7, entries: [], jobs: [] };
        worker.postMessage(req);
      });
      assert.equal(reply.seq, 7);
      assert.equal(reply.ends.length, 0);
    } finally {
      await worker.terminate();
    }
  });

  test('import-serve prints the figures of the imports serve would make, unbundled and bundled', async () => {
    const run = promisify(execFile);
    const env = { ...process.env, ROLE: 'all', FEED: 'simulator' };
    for (const cli of [join(ROOT, 'dist', 'src', 'cli.js'), join(BUNDLE, 'cli.js')]) {
      const { stdout } = await run(process.execPath, [cli, 'import-serve'], { env, timeout: 60_000 });
      const figures = JSON.parse(stdout) as { ms: number; cpuMs: number };
      assert.ok(figures.ms > 0 && figures.cpuMs > 0, `${cli}: ${stdout}`);
    }
  });

  test('node dist/bundle/cli.js serve: simulated events come in and answer, health shows the store, a stream moves to the stream process', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bundle-serve-'));
    const child = spawn(process.execPath, [join(BUNDLE, 'cli.js'), 'serve'], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        FEED: 'simulator',
        ROLE: 'all',
        ADMIN_KEY: ADMIN,
        DEMO_API_KEY: DEMO,
        DEMO_PLAN: 'unlimited',
        STREAM_PROCESS: 'on',
        STREAM_FRAME_WORKER: 'on',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let stream: SseClient | null = null;
    try {
      const port = await listeningPort(child, 60_000);
      const base = `http://127.0.0.1:${port}`;
      const key = { 'x-api-key': DEMO };
      // The simulator's worker produces the world and the pipeline applies it in batches (the embedded store's writer
      // thread takes the flushes): its first events answer within seconds, the whole world later (not waited for).
      let first: string | undefined;
      await until(
        'the first simulated events',
        async () => {
          const res = await fetch(`${base}/v1/events?limit=5`, { headers: key });
          first = res.ok ? ((await res.json()) as { events: Array<{ id: string }> }).events[0]?.id : undefined;
          return first !== undefined;
        },
        120_000,
        200,
      );
      const detail = await fetch(`${base}/v1/events/${encodeURIComponent(first!)}`, { headers: key });
      assert.equal(detail.status, 200);
      await detail.arrayBuffer();
      const health = await fetch(`${base}/v1/health`, { headers: key });
      const h = (await health.json()) as { services: { datastore: { status: string } } };
      assert.equal(h.services.datastore.status, 'connected', JSON.stringify(h));

      stream = await SseClient.connect(base, '/v1/stream', key);
      await stream.until((evs) => evs.length > 0, 30_000, 'a first stream event');
      const metric = async (name: string): Promise<number> => {
        const text = await (await fetch(`${base}/metrics`, { headers: { 'x-admin-key': ADMIN } })).text();
        const line = text.split('\n').find((l) => l.startsWith(`${name} `));
        return line === undefined ? Number.NaN : Number(line.split(' ')[1]);
      };
      await until(
        'the stream in the stream process',
        async () => (await metric('stream_process_connections')) === 1,
        30_000,
        100,
      );
      const procs = childrenOf(child.pid!).filter((c) => c.includes('stream-process-main.js'));
      assert.equal(procs.length, 1, procs.join('\n'));
      assert.ok(procs[0]!.includes(join(BUNDLE, 'stream-process-main.js')), procs[0]);
      stream.close();
      stream = null;

      child.kill('SIGTERM');
      assert.equal(await exited, 0, output);
      assert.doesNotMatch(output, /worker failed|stream process exited|"level":(50|60)/, output);
    } finally {
      stream?.close();
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
