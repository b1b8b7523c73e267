// A short chaos campaign (2 minutes of seeded faults on a scaled-out deployment, `npm run chaos`): its verdict must find no violation.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { clusterSkip } from '../helpers/cluster.js';
import { TEST_DATABASE_URL } from '../helpers/postgres.js';

const skip = (await clusterSkip()) || (await redisServerSkip());
const MAIN = join(process.cwd(), 'dist/chaos/main.js');

/** The campaign starts redis-servers of its own: it needs the binary. */
async function redisServerSkip(): Promise<string | false> {
  const ok = await new Promise<boolean>((resolve) => {
    const p = spawn('redis-server', ['--version'], { stdio: 'ignore' });
    p.once('error', () => resolve(false));
    p.once('exit', (code) => resolve(code === 0));
  });
  if (ok) return false;
  if (process.env.CI === 'true') throw new Error('CI=true but redis-server is not installed');
  return 'redis-server is not installed';
}

interface Report {
  violations: Array<{ rule: string; detail: string }>;
  figures: {
    requests: number;
    fault_count: number;
    faults: Record<string, number>;
    crashes: number;
    games: { started: number; resulted: number; results_checked: number; settlements_checked: number };
    streams: { clients: number; ids: number; duplicates: number; silent_gaps: number };
    takeover_ms: { samples: number[]; p50: number | null; p99: number | null };
    statuses: Record<string, number>;
  };
}

describe('chaos campaign: 2 minutes, seed 1', { skip }, () => {
  it('drives games to results through seeded faults with no violation: results, settlements, streams, health, no 500', async (t) => {
    const out = await mkdtemp(join(tmpdir(), 'chaos-ci-'));
    let passed = false;
    try {
      const child = spawn(
        process.execPath,
        [MAIN, '--minutes', '2', '--seed', '1', '--out', out, '--database-url', TEST_DATABASE_URL],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let log = '';
      child.stderr?.on('data', (c: Buffer) => {
        log = (log + c.toString()).slice(-20_000);
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
      const md = await readFile(join(out, 'report.md'), 'utf8');
      t.diagnostic(md);
      const f = report.figures;
      assert.deepEqual(
        report.violations.slice(0, 10).map((v) => `${v.rule}: ${v.detail}`),
        [],
        `${report.violations.length} violations\n${log}`,
      );
      assert.equal(code, 0, log);
      // The campaign did what it says: faults, reads, games through to settlement, streams.
      assert.ok(f.fault_count >= 5, `faults: ${JSON.stringify(f.faults)}`);
      assert.ok(f.requests > 500, `requests: ${f.requests}`);
      assert.equal(f.statuses['500'] ?? 0, 0);
      assert.equal(f.crashes, 0);
      assert.ok(f.games.started >= 20 && f.games.resulted === f.games.started, JSON.stringify(f.games));
      assert.ok(f.games.settlements_checked >= 2 * f.games.started, JSON.stringify(f.games));
      assert.ok(
        f.streams.ids > 100 && f.streams.duplicates === 0 && f.streams.silent_gaps === 0,
        JSON.stringify(f.streams),
      );
      if ((f.faults['leader-kill'] ?? 0) > 0) assert.equal(f.takeover_ms.samples.length, f.faults['leader-kill']);
      console.log(
        `FAULT-FIGURES chaos-campaign: seed 1, 2 min: ${f.requests} requests, ${f.fault_count} faults ${JSON.stringify(f.faults)}, ` +
          `${f.games.resulted} games settled, ${f.streams.ids} stream ids, takeover p50 ${f.takeover_ms.p50} ms p99 ${f.takeover_ms.p99} ms, 0 violations`,
      );
      passed = true;
    } finally {
      // A failed run's report and node logs stay for whoever looks into it.
      if (passed) await rm(out, { recursive: true, force: true });
      else console.log(`the campaign's report and node logs: ${out}`);
    }
  });
});
