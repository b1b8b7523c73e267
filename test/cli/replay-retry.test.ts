// `replay` is a producer that sends again what was refused for a transient reason: retryable lines with backoff, whole requests on 503 or no answer.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { replay } from '../../src/replay.js';
import { ADMIN_KEY, fixture, result, startService, status, type TestService } from '../helpers/service.js';

const stats = (id: string): object => ({
  type: 'stats',
  event_id: id,
  players: [{ player_id: 'p1', name: 'Some One', team: 'home', goals: 1 }],
  final: true,
});

describe('replay: sending refused lines again', () => {
  let dir = '';
  let svc: TestService;
  let url = '';
  /** The store refuses this many result commits from now on (a full disk that is being cleared). */
  let refuse = 0;
  let refused = 0;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'replay-retry-'));
    svc = await startService();
    const store = svc.service.store;
    const saveResult = store.saveResult.bind(store);
    store.saveResult = async (r, b) => {
      if (refuse > 0) {
        refuse--;
        refused++;
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      }
      return saveResult(r, b);
    };
    url = await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await svc.close();
    await rm(dir, { recursive: true, force: true });
  });

  const file = async (name: string, messages: object[]): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
    return path;
  };
  const config = loadConfig({ DATA_DIR: join(dir, 'unused'), FEED: 'none', LOG_LEVEL: 'silent' });

  it('retries refused lines (and the later lines of their event) in order until taken', async () => {
    const path = await file('a.ndjson', [
      fixture('rp1'),
      status('rp1', 'live'),
      result('rp1', 3, 1),
      stats('rp1'),
      fixture('rp2'),
    ]);
    refuse = 2;
    refused = 0;
    const report = await replay(config, {
      file: path,
      url,
      adminKey: ADMIN_KEY,
      batch: 10,
      progress: false,
      retryDelayMs: 5,
    });
    assert.equal(refused, 2);
    assert.deepEqual(report.errors, []);
    assert.equal(report.accepted, 5);
    assert.equal(report.rejected, 0);
    // Sent again together; refused again, nothing of that request was applied: a 503, sent again whole.
    assert.equal(report.retried, 2, 'the result and the stats behind it');
    assert.equal(report.requestsRetried, 1);
    const r = await svc.get<{ status: string; score: { home: number; away: number } }>('/v1/events/rp1/result');
    assert.equal(r.body.status, 'ended');
    assert.deepEqual(r.body.score, { home: 3, away: 1 });
    const playerStats = svc.service.readModel.get('rp1')?.event.playerStats ?? null;
    assert.notEqual(playerStats, null, 'the stats were applied too, after the result as in the file');
  });

  it('sends a whole request again when it is answered 503 (nothing applied)', async () => {
    const path = await file('b.ndjson', [fixture('rp3'), status('rp3', 'live'), result('rp3', 0, 0)]);
    refuse = 2;
    const report = await replay(config, {
      file: path,
      url,
      adminKey: ADMIN_KEY,
      batch: 1,
      progress: false,
      retryDelayMs: 5,
    });
    assert.equal(report.rejected, 0);
    assert.equal(report.accepted, 3);
    assert.equal(report.requestsRetried, 2, 'the result alone in its request: answered 503 twice');
    assert.equal((await svc.get<{ status: string }>('/v1/events/rp3/result')).body.status, 'ended');
  });

  it('gives a line up after the configured attempts and reports it', async () => {
    const path = await file('c.ndjson', [fixture('rp4'), status('rp4', 'live'), result('rp4', 1, 0), fixture('rp5')]);
    refuse = 1_000;
    const report = await replay(config, {
      file: path,
      url,
      adminKey: ADMIN_KEY,
      batch: 10,
      progress: false,
      attempts: 3,
      retryDelayMs: 1,
    });
    refuse = 0;
    assert.equal(report.accepted, 3);
    assert.equal(report.gaveUp, 1);
    assert.equal(report.rejected, 1);
    assert.equal(report.errors[0]?.line, 3);
    assert.equal(report.errors[0]?.retryable, true);
    assert.match(report.errors[0]?.message ?? '', /given up after 3 attempts/);
  });

  it('a service that does not answer: the request is tried the configured number of times, then replay fails', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const path = await file('d.ndjson', [fixture('rp6')]);
    await assert.rejects(
      replay(config, {
        file: path,
        url: `http://127.0.0.1:${port}`,
        adminKey: ADMIN_KEY,
        batch: 10,
        progress: false,
        attempts: 3,
        retryDelayMs: 1,
      }),
      /did not answer after 3 attempts/,
    );
  });
});
