// One clock for everything a client sees: with the simulator at SIM_SPEED > 1, a hand-fed result without `ts` ends at the world's "now", which health, X-World-Time and settlements agree with.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';
import { fixture, markets, MINUTE, startService, status, type TestService } from '../helpers/service.js';

const ADMIN = 'admin-world-clock';
const DEMO = 'demo-world-clock';
const SPEED = 3600;

interface Health {
  timestamp: string;
  uptime_seconds: number;
}

/** A result without `ts` or `ended_at`: the service stamps it with its own "now". */
const bareResult = (id: string) => ({ type: 'result', event_id: id, status: 'ended', score: { home: 2, away: 1 } });

describe('one clock with an accelerated simulator (SIM_SPEED=3600)', () => {
  let dataDir: string;
  let service: Service;
  // The injected wall clock stands still unless the test moves it, so world times are exact.
  const wallStart = Date.now();
  let wall = wallStart;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'world-clock-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      FEED: 'simulator',
      SIM_SPEED: String(SPEED),
      ADMIN_KEY: ADMIN,
      DEMO_API_KEY: DEMO,
      DEMO_PLAN: 'unlimited',
      LOG_LEVEL: 'silent',
    });
    service = await createService(config, { now: () => wall });
  });
  after(async () => {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const get = (url: string, key: string | null = DEMO) =>
    service.app.inject({ method: 'GET', url, headers: key === null ? {} : { 'x-api-key': key } });

  async function feed(messages: object[]): Promise<void> {
    const res = await service.app.inject({
      method: 'POST',
      url: '/admin/v1/feed',
      headers: { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
      payload: messages.map((m) => JSON.stringify(m)).join('\n'),
    });
    assert.equal(res.statusCode, 200, res.body);
    const report = JSON.parse(res.body) as { rejected: number; errors: unknown[] };
    assert.equal(report.rejected, 0, JSON.stringify(report.errors));
  }

  test('a hand-fed result without ts ends at the same "now" that health, X-World-Time and settlements show', async () => {
    wall = wallStart + 2_000; // two real seconds: two world hours
    const worldNow = wallStart + 2_000 * SPEED;
    const worldIso = new Date(worldNow).toISOString();
    const id = 'hand-fed-1';
    await feed([
      fixture(id, { start_time: new Date(worldNow - 100 * MINUTE).toISOString() }),
      markets(id),
      status(id, 'live'),
      bareResult(id),
    ]);
    await service.settlement.idle();

    const result = await get(`/v1/events/${id}/result`);
    assert.equal(result.statusCode, 200, result.body);
    const endedAt = (JSON.parse(result.body) as { ended_at: string }).ended_at;
    assert.equal(endedAt, worldIso, 'the result is stamped with the world clock');

    const health = await get('/v1/health');
    const h = JSON.parse(health.body) as Health;
    assert.equal(h.timestamp, worldIso, `health says "now" is ${h.timestamp}, the result ended at ${endedAt}`);
    assert.equal(health.headers['x-world-time'], worldIso);
    assert.equal(h.uptime_seconds, 2, 'uptime is real time');
    assert.ok(Date.parse(endedAt) <= Date.parse(h.timestamp), 'nothing a client sees ended after "now"');

    const settlements = await get(`/v1/settlements?event_ids=${id}`);
    assert.equal(settlements.statusCode, 200, settlements.body);
    const entry = (JSON.parse(settlements.body) as { settlements: Array<{ ended_at: string; updated_at: string }> })
      .settlements[0];
    assert.ok(entry, settlements.body);
    assert.equal(entry.ended_at, worldIso);
    assert.equal(entry.updated_at, worldIso, 'settled at the world\'s "now"');

    // /v1/status tells the world's time and pace, so a client can reason about a SIM_SPEED world.
    const st = JSON.parse((await get('/v1/status', null)).body) as { world_time: string; world_speed: number };
    assert.equal(st.world_time, worldIso);
    assert.equal(st.world_speed, SPEED);

    // Every answer, keyless and refused ones too, carries the world's "now".
    for (const res of [await get('/v1/status', null), await get('/v1/events', null), await get('/livez', null)]) {
      assert.equal(res.headers['x-world-time'], worldIso, res.body);
    }
  });

  test('a day later in the world (30 real seconds) every client-visible clock moved together; usage days stay real', async () => {
    wall = wallStart + 30_000;
    const worldIso = new Date(wallStart + 30_000 * SPEED).toISOString();
    const id = 'hand-fed-2';
    await feed([
      fixture(id, { start_time: new Date(wallStart + 30_000 * SPEED - 100 * MINUTE).toISOString() }),
      status(id, 'live'),
      bareResult(id),
    ]);
    const result = JSON.parse((await get(`/v1/events/${id}/result`)).body) as { ended_at: string };
    const health = await get('/v1/health');
    assert.equal(result.ended_at, worldIso);
    assert.equal((JSON.parse(health.body) as Health).timestamp, worldIso);
    // Quota periods are real days and months: 30 hours of world time did not move them.
    const usage = await get('/v1/usage');
    assert.equal(usage.statusCode, 200, usage.body);
    assert.equal(usage.headers['x-world-time'], worldIso);
    const days = (JSON.parse(usage.body) as { daily: Array<{ date: string }> }).daily.map((d) => d.date);
    assert.equal(days.at(-1), new Date(wall).toISOString().slice(0, 10), JSON.stringify(days));
    assert.notEqual(days.at(-1), worldIso.slice(0, 10));
  });
});

describe('the wall clock is the world clock without an accelerated world', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService(); // FEED=none, injected clock at T0
  });
  after(() => svc.close());

  test('FEED=none: health and a ts-less result read the wall clock, and no X-World-Time is sent', async () => {
    svc.clock.advance(5_000);
    const now = new Date(svc.clock.now()).toISOString();
    await svc.feed([fixture('wall-1'), status('wall-1', 'live'), bareResult('wall-1')]);
    const result = await svc.get<{ ended_at: string }>('/v1/events/wall-1/result');
    assert.equal(result.body.ended_at, now);
    const health = await svc.get<Health>('/v1/health');
    assert.equal(health.body.timestamp, now);
    assert.equal(health.headers['x-world-time'], undefined);
    const st = await svc.get<{ world_time: string; world_speed: number }>('/v1/status');
    assert.equal(st.body.world_time, now, 'the world runs on the wall clock');
    assert.equal(st.body.world_speed, 1);
  });
});
