// GET /v1/stream against decisions.md "Real-time delivery" as written: every event name in `types`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SseClient } from '../helpers/sse.js';
import { listen } from '../helpers/stream-life.js';
import { DEMO_KEY, feedOk, fixture, markets, odds, SEL, startService, type TestService } from '../helpers/service.js';

const key = { 'x-api-key': DEMO_KEY };

describe('GET /v1/stream: the contract as written', () => {
  let svc: TestService;
  let base: string;
  before(async () => {
    svc = await startService({ env: { STREAM_HEARTBEAT_SECONDS: '1' } });
    base = await listen(svc);
  });
  after(async () => svc.close());

  test('types accepts every event name of the contract: heartbeat, snapshot_required and close are always sent', async () => {
    const hb = await SseClient.connect(base, '/v1/stream?types=heartbeat', key);
    const both = await SseClient.connect(base, '/v1/stream?types=odds,heartbeat,snapshot_required,close', key);
    const resumed = await SseClient.connect(base, '/v1/stream?types=odds', { ...key, 'last-event-id': 'junk' });
    await feedOk(svc, [fixture('t1'), markets('t1')]);
    await feedOk(svc, [odds('t1', [{ selection_id: SEL.home, odds: 3.1 }])]);
    await both.untilCount(1);
    for (const c of [hb, both]) await c.until((ev) => ev.some((e) => e.event === 'heartbeat'), 5000, 'a heartbeat');
    await resumed.untilCount(2);
    for (const c of [hb, both, resumed]) c.close();
    assert.deepEqual(hb.changes, [], 'types=heartbeat: heartbeats only');
    assert.deepEqual(
      both.changes.map((e) => e.event),
      ['odds'],
    );
    assert.deepEqual(
      resumed.changes.map((e) => e.event),
      ['snapshot_required', 'odds'],
      'snapshot_required is sent whatever types says',
    );
  });
});
