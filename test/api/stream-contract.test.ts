// GET /v1/stream against decisions.md "Real-time delivery" as written: every event name in `types`, ids never handed out.
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

  test('an empty last_event_id is no id, as an empty Last-Event-ID header is: the stream starts fresh', async () => {
    const q = await SseClient.connect(base, '/v1/stream?event_ids=e1&last_event_id=', key);
    const h = await SseClient.connect(base, '/v1/stream?event_ids=e1', { ...key, 'last-event-id': ' ' });
    await feedOk(svc, [fixture('e1')]);
    for (const c of [q, h]) {
      await c.untilCount(1);
      c.close();
      assert.deepEqual(
        c.changes.map((e) => e.event),
        ['status'],
      );
    }
  });

  test('an id this log never handed out (another installation, a made-up sequence) is answered snapshot_required unknown', async () => {
    const c = await SseClient.connect(base, '/v1/stream?event_ids=n1', key);
    await feedOk(svc, [fixture('n1'), markets('n1')]);
    svc.clock.advance(10);
    await feedOk(svc, [odds('n1', [{ selection_id: SEL.home, odds: 2.2 }])]);
    svc.clock.advance(10);
    await feedOk(svc, [odds('n1', [{ selection_id: SEL.home, odds: 2.4 }])]);
    await c.untilCount(4);
    c.close();
    // Inside the window, between positions it handed out: not ones of ours.
    const [ms, seq] = String(c.changes[2]?.id).split('-').map(Number);
    const foreign = [`${ms}-${Number(seq) + 500}`, `${Number(ms) + 5}-0`];
    for (const id of foreign) {
      const r = await SseClient.connect(base, '/v1/stream?event_ids=n1', { ...key, 'last-event-id': id });
      await r.untilCount(1);
      r.close();
      assert.equal(r.changes[0]?.event, 'snapshot_required', id);
      assert.equal(r.changes[0]?.data.reason, 'unknown', id);
    }
    // An id it did hand out still resumes exactly.
    const r = await SseClient.connect(base, '/v1/stream?event_ids=n1', {
      ...key,
      'last-event-id': String(c.changes[2]?.id),
    });
    await r.untilCount(1);
    r.close();
    assert.deepEqual(
      r.changes.map((e) => e.id),
      c.changes.slice(3).map((e) => e.id),
    );
  });
});
