// A leader's pipeline hands on what it applied (stamped); a replica applies the same to its own read model and writes nothing.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { FeedMessage } from '../../src/feed/messages.js';
import type { IngressMessage } from '../../src/feed/packed-odds.js';
import { parsePackedBody } from '../../src/feed/packed-body.js';
import { ChangeLog } from '../../src/live/change-log.js';
import { formatLogPosition } from '../../src/live/log-position.js';
import { LogReplay, type BatchPositions } from '../../src/live/log-replay.js';
import { ReadModel } from '../../src/live/read-model.js';
import { Pipeline, type AppliedSink } from '../../src/pipeline/pipeline.js';
import { decodeFeedBatch, encodeFeedBatch } from '../../src/pipeline/stream-codec.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const silent = { warn: () => undefined, error: () => undefined };

class RecordingSink implements AppliedSink {
  batches: IngressMessage[][] = [];
  positions: BatchPositions[] = [];
  handed = 0;
  watermarks: unknown[] = [];
  applied(messages: IngressMessage[], positions: BatchPositions): void {
    this.batches.push(messages);
    this.positions.push(positions);
    this.handed++;
  }
  mark(): unknown {
    return this.handed;
  }
  flushed(mark: unknown): void {
    this.watermarks.push(mark);
  }
}

/** A store whose writes are counted (a replica must make none). */
function counting(store: Store): { store: Store; writes: string[] } {
  const writes: string[] = [];
  const wrapped = Object.create(store) as Store;
  for (const name of [
    'writeBatch',
    'saveResult',
    'saveTournament',
    'saveOutrightMarket',
    'settleOutrightMarket',
  ] as const) {
    const original = store[name].bind(store) as (...args: unknown[]) => Promise<void>;
    (wrapped as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      writes.push(name);
      return original(...args);
    };
  }
  return { store: wrapped, writes };
}

let dir: string;
let store: Store;
const clock = { t: T0 };
const pipelines: Pipeline[] = [];

function pipeline(opts: { sink?: AppliedSink; replica?: boolean; store?: Store; logClockMs?: number } = {}): {
  p: Pipeline;
  rm: ReadModel;
} {
  // A node's log runs on its own wall clock (`logClockMs` ahead of the leader's here).
  const log = new ChangeLog({ now: () => clock.t + (opts.logClockMs ?? 0), windowMs: 3_600_000, maxBytes: 1 << 30 });
  const rm = new ReadModel({ now: () => clock.t, log });
  const p = new Pipeline({
    readModel: rm,
    store: opts.store ?? store,
    now: () => clock.t,
    flushIntervalMs: 60_000,
    endedRetentionMs: 24 * 3_600_000,
    log: silent,
    ...(opts.sink ? { sink: opts.sink } : {}),
    ...(opts.replica ? { replica: true } : {}),
  });
  pipelines.push(p);
  return { p, rm };
}

const fixture = (id = 'e1'): FeedMessage =>
  ({
    type: 'fixture',
    event_id: id,
    sport: 'soccer',
    league: { slug: 'test-league', name: 'Test League', country: 'Testland', tier: 1 },
    home_team: 'Home',
    away_team: 'Away',
    start_time: '2026-03-01T11:00:00Z',
  }) as FeedMessage;

const markets = (id = 'e1'): FeedMessage =>
  ({
    type: 'markets',
    event_id: id,
    markets: [
      {
        market_id: 1,
        key: '1x2',
        name: 'Match Result',
        outcomes: [
          { selection_id: 11, code: 'home', label: 'Home', odds: 2.1 },
          { selection_id: 12, code: 'draw', label: 'Draw', odds: 3.3 },
          { selection_id: 13, code: 'away', label: 'Away', odds: 3.4 },
        ],
      },
    ],
  }) as FeedMessage;

const odds = (sel: number, value: number, id = 'e1'): FeedMessage =>
  ({ type: 'odds', event_id: id, changes: [{ selection_id: sel, odds: value }] }) as FeedMessage;

function oddsPayload(rm: ReadModel, id = 'e1'): string {
  const le = rm.get(id);
  assert.ok(le !== undefined, `${id} is in the read model`);
  return rm.detailJson(le, 'decimal', '').toString() + rm.oddsJson(le, 'american').toString();
}

describe('leader and replica pipelines', () => {
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'replica-test-'));
    store = await openSqliteStore({ dataDir: dir });
    clock.t = T0;
  });

  afterEach(async () => {
    for (const p of pipelines.splice(0)) await p.stop();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a leader hands on, per batch and in order, only the messages that changed something, stamped with the apply time', async () => {
    const sink = new RecordingSink();
    const { p } = pipeline({ sink });
    await p.load();
    await p.applyAll([fixture(), markets(), odds(11, 2.2)]);
    clock.t += 1000;
    // A repeat changes nothing, an unknown event is rejected: neither is handed on.
    await p.applyAll([odds(11, 2.2), odds(11, 2.5, 'nope'), odds(12, 3.1)]);
    assert.equal(sink.batches.length, 2);
    assert.deepEqual(
      sink.batches.map((b) => b.map((m) => m.type)),
      [['fixture', 'markets', 'odds'], ['odds']],
    );
    assert.equal(sink.batches[0]?.[0]?.ts, new Date(T0).toISOString());
    assert.equal(sink.batches[1]?.[0]?.ts, new Date(T0 + 1000).toISOString());
    // A message that came with its own ts keeps it.
    await p.applyAll([{ ...odds(13, 3.9), ts: '2026-03-01T11:59:00Z' } as FeedMessage]);
    assert.equal(sink.batches[2]?.[0]?.ts, '2026-03-01T11:59:00Z');
  });

  it('a replica fed the handed-on messages serves the same payloads as the leader and writes nothing', async () => {
    const sink = new RecordingSink();
    const leader = pipeline({ sink });
    await leader.p.load();
    const { store: watched, writes } = counting(store);
    const replica = pipeline({ replica: true, store: watched });
    await replica.p.load();
    replica.p.start();

    // Odds in a large body arrive packed: they cross the stream packed too.
    const body = [fixture(), markets(), { type: 'status', event_id: 'e1', status: 'live' }, odds(11, 2.4)]
      .map((m) => JSON.stringify(m))
      .join('\n');
    await leader.p.applyLines(parsePackedBody(body).lines);
    clock.t += 5_000;
    await leader.p.applyAll([
      { type: 'score', event_id: 'e1', home: 1, away: 0 } as unknown as FeedMessage,
      odds(12, 4),
    ]);
    clock.t += 60_000;
    await leader.p.applyAll([
      { type: 'result', event_id: 'e1', status: 'ended', score: { home: 1, away: 0 } } as unknown as FeedMessage,
    ]);
    // The leader committed the result before handing it on; the replica still makes the event final.
    assert.ok((await store.getResult('e1')) !== null);

    clock.t += 1_000; // replicas apply a little later: the stamped ts decides every time, not their clock
    for (const batch of sink.batches) {
      const outcomes = await replica.p.applyAll(decodeFeedBatch(encodeFeedBatch(batch)));
      assert.ok(
        outcomes.every((o) => o.ok && o.changed),
        JSON.stringify(outcomes),
      );
    }
    assert.equal(oddsPayload(replica.rm), oddsPayload(leader.rm));
    assert.deepEqual(replica.rm.get('e1')?.event, leader.rm.get('e1')?.event);
    assert.equal(replica.rm.get('e1')?.event.status, 'ended');
    assert.deepEqual(await replica.p.result('e1'), await leader.p.result('e1'));
    await replica.p.flush();
    assert.deepEqual(writes, [], 'the replica wrote nothing');
  });

  it('replaying messages the loaded store already reflects leaves the replica as the store has it', async () => {
    const sink = new RecordingSink();
    const leader = pipeline({ sink });
    await leader.p.load();
    await leader.p.applyAll([fixture(), markets(), { type: 'status', event_id: 'e1', status: 'live' } as FeedMessage]);
    await leader.p.applyAll([odds(11, 2.4), odds(11, 2.6)]);
    await leader.p.applyAll([
      { type: 'result', event_id: 'e1', status: 'ended', score: { home: 2, away: 2 } } as unknown as FeedMessage,
    ]);
    await leader.p.flush();
    const replica = pipeline({ replica: true });
    await replica.p.load();
    const before = oddsPayload(replica.rm);
    for (const batch of sink.batches) await replica.p.applyAll(decodeFeedBatch(encodeFeedBatch(batch)));
    assert.equal(oddsPayload(replica.rm), before);
    assert.equal(replica.rm.get('e1')?.event.status, 'ended');
    assert.equal((await replica.p.result('e1'))?.revision, 1, 'no revision raised by the replay');
  });

  it('a flush reports the mark taken with its batch once the store has committed it', async () => {
    const sink = new RecordingSink();
    const { p } = pipeline({ sink });
    await p.load();
    await p.applyAll([fixture(), markets()]);
    await p.flush();
    assert.deepEqual(sink.watermarks, [1]);
    // Nothing pending: the store already reflects everything handed on.
    await p.applyAll([odds(11, 2.2)]);
    await p.flush();
    await p.flush();
    assert.deepEqual(sink.watermarks, [1, 2, 2]);
  });

  it("a replica replaying each batch at the leader's recorded positions logs the same entries at the same positions", async () => {
    const sink = new RecordingSink();
    const leader = pipeline({ sink });
    await leader.p.load();
    const replica = pipeline({ replica: true, logClockMs: 7_000 });
    await replica.p.load();
    await leader.p.applyAll([fixture(), markets(), { type: 'status', event_id: 'e1', status: 'live' } as FeedMessage]);
    clock.t += 1;
    await leader.p.applyAll([
      odds(11, 2.4),
      { type: 'score', event_id: 'e1', home: 1, away: 0 } as unknown as FeedMessage,
    ]);
    clock.t += 1;
    await leader.p.applyAll([
      { type: 'result', event_id: 'e1', status: 'ended', score: { home: 1, away: 0 } } as unknown as FeedMessage,
    ]);
    const replay = new LogReplay(replica.rm.log);
    for (let i = 0; i < sink.batches.length; i++) {
      replay.begin();
      await replica.p.applyAll(decodeFeedBatch(encodeFeedBatch(sink.batches[i] as IngressMessage[])));
      const outcome = replay.end(sink.positions[i] as BatchPositions);
      assert.ok(outcome.matched, JSON.stringify(outcome));
    }
    const view = (log: ChangeLog): string[] =>
      log.since(null).map((e) => `${formatLogPosition(e.position)} ${e.kind} ${'json' in e ? e.json : ''}`);
    assert.deepEqual(view(replica.rm.log), view(leader.rm.log));
    assert.ok(replica.rm.log.size >= 7, `${replica.rm.log.size} entries`);
  });

  it("what else a leader logs (settlement, eviction) waits for the batch being applied: a batch's entries are consecutive", async () => {
    const sink = new RecordingSink();
    const leader = pipeline({ sink });
    await leader.p.load();
    await leader.p.applyAll([fixture(), markets(), { type: 'status', event_id: 'e1', status: 'live' } as FeedMessage]);
    clock.t += 1;
    // The result awaits its commit in the middle of the batch; a settlement entry is due meanwhile.
    const batch = leader.p.applyAll([
      odds(11, 2.6),
      { type: 'result', event_id: 'e1', status: 'ended', score: { home: 0, away: 0 } } as unknown as FeedMessage,
      odds(12, 3.9, 'nope'),
    ]);
    const settled = leader.p.exclusive(() =>
      leader.rm.log.append({
        kind: 'settlement',
        eventId: 'e1',
        sport: 'soccer',
        league: 'test-league',
        at: clock.t,
        bytes: 100,
        json: '{"event_id":"e1"}',
      }),
    );
    await batch;
    const entry = await settled;
    const recorded = sink.positions[1] as BatchPositions;
    const entries = leader.rm.log.since(null);
    const at = entries.findIndex((e) => e.position.ms === recorded.ms[0] && e.position.seq === recorded.seq[0]);
    assert.deepEqual(
      entries.slice(at, at + recorded.kinds.length + 1).map((e) => e.kind),
      [...recorded.kinds, 'settlement'],
    );
    assert.deepEqual(recorded.kinds.slice(0, 2), ['odds', 'status']);
    assert.equal(entry?.kind, 'settlement');
  });

  it('reload replaces a replica state with the store state in one step', async () => {
    const leader = pipeline({ sink: new RecordingSink() });
    await leader.p.load();
    await leader.p.applyAll([fixture('e1'), markets('e1'), odds(11, 2.2)]);
    await leader.p.flush();
    const replica = pipeline({ replica: true });
    await replica.p.load();
    // The replica got ahead on something the store never saw (a leader that died before flushing).
    await replica.p.applyAll([{ ...fixture('ghost'), ts: new Date(T0).toISOString() } as FeedMessage]);
    assert.ok(replica.rm.get('ghost') !== undefined);
    const n = await replica.p.reload();
    assert.equal(n, 1);
    assert.equal(replica.rm.get('ghost'), undefined);
    assert.equal(oddsPayload(replica.rm), oddsPayload(leader.rm));
  });
});
