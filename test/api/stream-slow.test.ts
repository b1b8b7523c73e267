// A stream client that stops reading: its odds are conflated (latest price per selection, flagged), and one too slow even for that is closed with a reason.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ContractValidator } from '../helpers/contract.js';
import { SseClient } from '../helpers/sse.js';
import { ADMIN_KEY, DEMO_KEY, feedOk, fixture, startService, status, type TestService } from '../helpers/service.js';

const key = { 'x-api-key': DEMO_KEY };
const MARKETS = 40;
const OUTCOMES = 50;

/** An event with 40 markets of 50 selections (2,000 prices). */
function bigMarkets(id: string, price: number): object {
  return {
    type: 'markets',
    event_id: id,
    markets: Array.from({ length: MARKETS }, (_, m) => ({
      market_id: m + 1,
      key: `correct_score@${m + 1}`,
      name: `Market ${m + 1} with a long name to make the payload weigh what real ones do`,
      outcomes: Array.from({ length: OUTCOMES }, (_, o) => ({
        selection_id: (m + 1) * 1000 + o,
        code: `c${o}`,
        label: `Outcome ${o} of market ${m + 1}`,
        odds: price,
      })),
    })),
  };
}

/** Every price of an event moved to `price`. */
function tick(id: string, price: number): object {
  const changes: object[] = [];
  for (let m = 1; m <= MARKETS; m++) {
    for (let o = 0; o < OUTCOMES; o++) changes.push({ selection_id: m * 1000 + o, odds: price });
  }
  return { type: 'odds', event_id: id, changes };
}

async function metric(svc: TestService, name: string): Promise<number> {
  const text = (await svc.inject('GET', '/metrics', { key: null, headers: { 'x-admin-key': ADMIN_KEY } })).text;
  let total = 0;
  for (const line of text.split('\n')) if (line.startsWith(name)) total += Number(line.split(' ').pop());
  return total;
}

describe('GET /v1/stream with a client that stops reading', () => {
  let svc: TestService;
  let base: string;
  // Conflated odds and a too_slow close are written here only: their data is checked against /openapi.json too.
  let contract: ContractValidator;
  before(async () => {
    svc = await startService({ env: { STREAM_BUFFER_KB: '16', STREAM_HEARTBEAT_SECONDS: '3600' } });
    await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(svc.service.app.server.address() as AddressInfo).port}`;
    contract = new ContractValidator((await svc.get('/openapi.json', { key: null })).body as never);
  });
  after(async () => svc.close());

  test('its prices are conflated to the latest per selection, flagged, and it catches up exactly once it reads again', async () => {
    await feedOk(svc, [fixture('c1'), bigMarkets('c1', 2), status('c1', 'live')]);
    const slow = await SseClient.connect(base, '/v1/stream?event_ids=c1&types=odds', key);
    slow.pause();
    const conflatedBefore = await metric(svc, 'stream_events_conflated_total');
    for (let i = 0; i < 60; i++) await feedOk(svc, [tick('c1', 2 + (i % 2 === 0 ? 0.5 : 1) + i / 100)]);
    const last = 2 + 1 + 59 / 100;
    assert.ok((await metric(svc, 'stream_events_conflated_total')) > conflatedBefore, 'prices were merged');
    slow.res.resume();
    await slow.until(
      (ev) => {
        const prices = new Map<number, number>();
        for (const e of ev) {
          if (e.event !== 'odds') continue;
          for (const c of e.data.changes as Array<{ selection_id: number; odds: number }>)
            prices.set(c.selection_id, c.odds);
        }
        return prices.size === MARKETS * OUTCOMES && [...prices.values()].every((p) => p === last);
      },
      20_000,
      'every selection at its latest price',
    );
    slow.close();
    assert.ok(
      slow.events.some((e) => e.event === 'odds' && e.data.conflated === true),
      'conflated events are flagged',
    );
    assert.ok(slow.events.filter((e) => e.event === 'odds').length < 60, 'fewer events than ticks');
    for (const e of slow.events) contract.sseEvent(e.event, e.data);
  });

  test('one too slow even for that is closed with a reason, and what it held is freed', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `h${i}`);
    await feedOk(
      svc,
      ids.flatMap((id) => [fixture(id), bigMarkets(id, 2), status(id, 'live')]),
    );
    const closedBefore = await metric(svc, 'stream_clients_closed_total{reason="too_slow"}');
    const hopeless = await SseClient.connect(base, '/v1/stream?types=odds', key);
    hopeless.pause();
    for (let i = 0; i < 20 && (await metric(svc, 'stream_connections')) > 0; i++) {
      await feedOk(
        svc,
        ids.map((id) => tick(id, 3 + i / 100)),
      );
    }
    assert.equal(await metric(svc, 'stream_connections'), 0, 'the stream was closed');
    assert.equal(await metric(svc, 'stream_clients_closed_total{reason="too_slow"}'), closedBefore + 1);
    hopeless.res.resume();
    await hopeless.until((ev) => ev.some((e) => e.event === 'close'), 20_000, 'the close event');
    const close = hopeless.events.find((e) => e.event === 'close');
    assert.equal(close?.data.reason, 'too_slow');
    assert.match(String(close?.data.message), /Last-Event-ID/);
    for (const e of hopeless.events) contract.sseEvent(e.event, e.data);
  });
});
