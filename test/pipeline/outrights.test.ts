// Outright messages in the pipeline: written through before they are acknowledged, restored by load(), nothing half-applied.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { FeedMessage } from '../../src/feed/messages.js';
import { ReadModel } from '../../src/live/read-model.js';
import { Pipeline } from '../../src/pipeline/pipeline.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const silent = { warn: () => undefined, error: () => undefined };

let dir: string;
const stores: Store[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pipeline-outrights-'));
});
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  await rm(dir, { recursive: true, force: true });
});

async function pipelineOn(store?: Store): Promise<{ pipeline: Pipeline; readModel: ReadModel; store: Store }> {
  const s = store ?? (await openSqliteStore({ dataDir: dir }));
  stores.push(s);
  const readModel = new ReadModel({ now: () => T0 });
  const pipeline = new Pipeline({
    readModel,
    store: s,
    now: () => T0,
    flushIntervalMs: 60_000,
    endedRetentionMs: 24 * 3_600_000,
    log: silent,
  });
  await pipeline.load();
  return { pipeline, readModel, store: s };
}

const messages: FeedMessage[] = [
  { type: 'tournament', tournament_id: 't1', tournament: 'Wimbledon', sport: 'tennis', sport_id: 3 },
  {
    type: 'outright_market',
    tournament_id: 't1',
    market_id: 1,
    market: 'Winner',
    selections: [
      { selection_id: 1, selection: 'A', odds: 2 },
      { selection_id: 2, selection: 'B', odds: 3 },
    ],
  },
  {
    type: 'outright_market',
    tournament_id: 't1',
    market_id: 2,
    market: 'Finalist',
    selections: [{ selection_id: 3, selection: 'A', odds: 1.5 }],
  },
  { type: 'outright_result', tournament_id: 't1', market_id: 1, winners: [{ selection_id: 2 }] },
];

describe('pipeline: outrights', () => {
  it('every outright message is in the store once acknowledged, without any flush', async () => {
    const { pipeline } = await pipelineOn();
    const outcomes = await pipeline.applyAll(messages);
    assert.ok(outcomes.every((o) => o.ok && o.changed));
    // Another process opening the same store sees everything (no flush, no stop).
    const other = await openSqliteStore({ dataDir: dir });
    stores.push(other);
    const stored = await other.loadOutrights();
    assert.deepEqual(
      stored.map((t) => [t.tournament.tournamentId, t.markets.map((m) => [m.market.marketId, m.result?.winners])]),
      [
        [
          't1',
          [
            [1, [{ selectionId: 2, deadHeatFactor: null }]],
            [2, undefined],
          ],
        ],
      ],
    );
    assert.equal(await other.countOutrightSettlements(['t1']), 2);
  });

  it('load() restores the book and the sports with outrights', async () => {
    const first = await pipelineOn();
    await first.pipeline.applyAll(messages);
    const again = await pipelineOn(await openSqliteStore({ dataDir: dir }));
    const t = again.pipeline.outrights.tournaments.get('t1');
    assert.deepEqual([...(t?.markets.keys() ?? [])].sort(), [1, 2]);
    assert.deepEqual(t?.results.get(1)?.winners, [{ selectionId: 2, deadHeatFactor: null }]);
    assert.deepEqual([...again.readModel.sportsWithOutrights], ['tennis']);
    // Settled before the restart, settled after it.
    const late = await again.pipeline.apply(messages[1] as FeedMessage);
    assert.equal(late.ok, false);
  });

  it('a write the store refuses is rejected as service_unavailable and changes nothing', async () => {
    const real = await openSqliteStore({ dataDir: dir });
    let fail = false;
    const flaky: Store = {
      ...real,
      settleOutrightMarket: (...args) =>
        fail ? Promise.reject(new Error('disk full')) : real.settleOutrightMarket(...args),
      saveTournament: (t) => (fail ? Promise.reject(new Error('disk full')) : real.saveTournament(t)),
    };
    const { pipeline, readModel } = await pipelineOn(flaky);
    await pipeline.applyAll(messages.slice(0, 3));
    fail = true;
    const [settle, rename] = await pipeline.applyAll([
      messages[3] as FeedMessage,
      { type: 'tournament', tournament_id: 't1', tournament: 'Renamed', sport: 'tennis', sport_id: 3 },
    ]);
    assert.deepEqual(settle, {
      ok: false,
      error: 'service_unavailable',
      component: 'datastore',
      message: 'the message could not be stored; nothing was changed, send it again',
      retryable: true,
    });
    assert.equal(rename?.ok, false);
    const t = pipeline.outrights.tournaments.get('t1');
    assert.equal(t?.results.size, 0);
    assert.equal(t?.tournament, 'Wimbledon');
    assert.equal(await real.countOutrightSettlements(null), 0);
    assert.deepEqual([...readModel.sportsWithOutrights], ['tennis']);
    // Sent again once the store is back: applied.
    fail = false;
    const retry = await pipeline.apply(messages[3] as FeedMessage);
    assert.deepEqual(retry, { ok: true, changed: true });
    assert.equal(await real.countOutrightSettlements(null), 2);
  });
});
