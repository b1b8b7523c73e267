// Stale-feed locks in the pipeline: counted on the wall clock, decided by the leader, handed on to replicas, kept in the store.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { FeedMessage } from '../../src/feed/messages.js';
import type { JsonEntry } from '../../src/live/log-entry.js';
import { ReadModel } from '../../src/live/read-model.js';
import { Pipeline, type AppliedSink, type PipelineMessage } from '../../src/pipeline/pipeline.js';
import { decodeFeedBatch, encodeFeedBatch } from '../../src/pipeline/stream-codec.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const LIMIT_MS = 30_000;
const silent = { warn: () => undefined, error: () => undefined };

class RecordingSink implements AppliedSink {
  batches: PipelineMessage[][] = [];
  applied(messages: PipelineMessage[]): void {
    this.batches.push(messages);
  }
  mark(): unknown {
    return this.batches.length;
  }
  flushed(): void {}
}

let dir: string;
let store: Store;
/** World time (an accelerated simulator's) and wall time move separately. */
const clock = { world: T0, wall: T0 };
const pipelines: Pipeline[] = [];

function pipeline(opts: { sink?: AppliedSink; replica?: boolean } = {}): { p: Pipeline; rm: ReadModel } {
  const rm = new ReadModel({ now: () => clock.world });
  const p = new Pipeline({
    readModel: rm,
    store,
    now: () => clock.world,
    wallNow: () => clock.wall,
    staleLockMs: LIMIT_MS,
    flushIntervalMs: 60_000,
    endedRetentionMs: 24 * 3_600_000,
    log: silent,
    ...(opts.sink ? { sink: opts.sink } : {}),
    ...(opts.replica ? { replica: true } : {}),
  });
  pipelines.push(p);
  return { p, rm };
}

const advance = (ms: number): void => {
  clock.world += ms;
  clock.wall += ms;
};

const liveEvent = (id = 'e1'): FeedMessage[] =>
  [
    {
      type: 'fixture',
      event_id: id,
      sport: 'soccer',
      league: { slug: 'test-league', name: 'Test League', country: 'Testland', tier: 1 },
      home_team: 'Home',
      away_team: 'Away',
      start_time: '2026-03-01T11:00:00Z',
    },
    {
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
    },
    { type: 'status', event_id: id, status: 'live' },
    { type: 'score', event_id: id, score: { home: 0, away: 0 }, period: '1H', clock: '10:00' },
  ] as FeedMessage[];

const sameScore = (id = 'e1'): FeedMessage =>
  ({ type: 'score', event_id: id, score: { home: 0, away: 0 }, period: '1H', clock: '10:00' }) as FeedMessage;

function payload(rm: ReadModel, id = 'e1'): string {
  const le = rm.get(id);
  assert.ok(le !== undefined, `${id} is in the read model`);
  return rm.oddsJson(le, 'decimal').toString() + rm.listItemJson(le, 'decimal', '');
}

const lockedAll = (rm: ReadModel, id = 'e1'): boolean =>
  (
    JSON.parse(rm.oddsJson(rm.get(id)!, 'decimal').toString()) as {
      markets: Array<{ outcomes: Array<{ is_locked: boolean }> }>;
    }
  ).markets
    .flatMap((m) => m.outcomes)
    .every((o) => o.is_locked);

const lockReasons = (rm: ReadModel, id = 'e1'): unknown[] =>
  rm.log
    .since(null)
    .filter((e): e is JsonEntry => e.kind === 'status' && e.eventId === id)
    .map((e) => (JSON.parse(e.json) as { lock_reason: unknown }).lock_reason);

/** Hands a leader's batches to a replica as the change stream would (encoded and decoded). */
async function replay(sink: RecordingSink, replica: Pipeline, from = 0): Promise<void> {
  for (const batch of sink.batches.slice(from)) await replica.applyAll(decodeFeedBatch(encodeFeedBatch(batch)));
}

describe('stale-feed locks in the pipeline', () => {
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stale-feed-test-'));
    store = await openSqliteStore({ dataDir: dir });
    clock.world = T0;
    clock.wall = T0;
  });

  afterEach(async () => {
    for (const p of pipelines.splice(0)) await p.stop();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("counts on the wall clock: an accelerated world's hours are not the feed's silence", async () => {
    const { p, rm } = pipeline();
    await p.load();
    await p.applyAll(liveEvent());
    clock.world += 3 * 3_600_000;
    clock.wall += LIMIT_MS - 1;
    assert.equal(await p.sweepStale(), 0);
    assert.equal(lockedAll(rm), false);
    clock.wall += 1;
    assert.equal(await p.sweepStale(), 1);
    assert.equal(lockedAll(rm), true);
  });

  it('a stale lock is no feed change: the pipeline health and the message counters do not move', async () => {
    const { p } = pipeline();
    await p.load();
    await p.applyAll(liveEvent());
    const last = p.lastChangeAt;
    const applied = new Map(p.counters.applied);
    advance(LIMIT_MS);
    assert.equal(await p.sweepStale(), 1);
    assert.equal(p.lastChangeAt, last);
    assert.deepEqual(p.counters.applied, applied);
  });

  it('the leader hands the lock on; a replica applies it and reports the same, in payloads and in its log', async () => {
    const sink = new RecordingSink();
    const leader = pipeline({ sink });
    await leader.p.load();
    const replica = pipeline({ replica: true });
    await replica.p.load();
    await leader.p.applyAll(liveEvent());
    advance(LIMIT_MS);
    await leader.p.sweepStale();
    const last = sink.batches.at(-1);
    assert.deepEqual(
      last?.map((m) => ({ type: m.type, event_id: 'event_id' in m ? m.event_id : null })),
      [{ type: 'feed_stale', event_id: 'e1' }],
    );
    await replay(sink, replica.p);
    assert.equal(lockedAll(replica.rm), true);
    assert.equal(payload(replica.rm), payload(leader.rm));
    assert.deepEqual(lockReasons(replica.rm), lockReasons(leader.rm));
    assert.deepEqual(lockReasons(replica.rm), [null, 'stale_feed']);
  });

  it('fresh data lifts the lock on the leader and on the replica alike, whether it changed something or not', async () => {
    const sink = new RecordingSink();
    const leader = pipeline({ sink });
    await leader.p.load();
    const replica = pipeline({ replica: true });
    await replica.p.load();
    await leader.p.applyAll(liveEvent());
    advance(LIMIT_MS);
    await leader.p.sweepStale();
    // The same score again changes nothing, so it is not handed on; the unlock is.
    let from = sink.batches.length;
    await leader.p.applyAll([sameScore()]);
    assert.deepEqual(
      sink.batches.slice(from).map((b) => b.map((m) => m.type)),
      [['feed_stale']],
    );
    await replay(sink, replica.p);
    assert.equal(lockedAll(replica.rm), false);
    assert.equal(payload(replica.rm), payload(leader.rm));

    // A change is handed on as itself: the replica lifts the lock as the leader did.
    advance(LIMIT_MS);
    await leader.p.sweepStale();
    from = sink.batches.length - 1;
    await leader.p.applyAll([
      { type: 'odds', event_id: 'e1', changes: [{ selection_id: 11, odds: 2 }] } as FeedMessage,
    ]);
    assert.deepEqual(
      sink.batches.slice(from).map((b) => b.map((m) => m.type)),
      [['feed_stale'], ['odds']],
    );
    await replay(sink, replica.p, from);
    assert.equal(lockedAll(replica.rm), false);
    assert.equal(payload(replica.rm), payload(leader.rm));
    assert.deepEqual(lockReasons(replica.rm), lockReasons(leader.rm));
    assert.deepEqual(lockReasons(leader.rm), [null, 'stale_feed', null, 'stale_feed', null]);
  });

  it('a replica never decides a lock by itself', async () => {
    const replica = pipeline({ replica: true });
    await replica.p.load();
    await replica.p.applyAll(liveEvent().map((m) => ({ ...m, ts: new Date(T0).toISOString() })));
    advance(10 * LIMIT_MS);
    assert.equal(await replica.p.sweepStale(), 0);
    assert.equal(lockedAll(replica.rm), false);
  });

  it('the lock is in the stored event: a replica reloading from the store reports it too', async () => {
    const leader = pipeline({ sink: new RecordingSink() });
    await leader.p.load();
    await leader.p.applyAll(liveEvent());
    advance(LIMIT_MS);
    await leader.p.sweepStale();
    await leader.p.flush();
    const replica = pipeline({ replica: true });
    await replica.p.load();
    assert.equal(lockedAll(replica.rm), true);
    assert.equal(payload(replica.rm), payload(leader.rm));
    // Fresh data lifts it for the store as well.
    await leader.p.applyAll([sameScore()]);
    await leader.p.flush();
    await replica.p.reload();
    assert.equal(lockedAll(replica.rm), false);
  });

  it('a lock decided while fresh data waited in the queue is not applied', async () => {
    const { p, rm } = pipeline();
    await p.load();
    await p.applyAll(liveEvent());
    advance(LIMIT_MS);
    // The feed's batch is queued first; the sweep runs after it and finds the event fresh.
    const fed = p.applyAll([sameScore()]);
    const swept = p.sweepStale();
    await fed;
    assert.equal(await swept, 0);
    assert.equal(lockedAll(rm), false);
  });

  it('the running pipeline sweeps by itself', async () => {
    const { p, rm } = pipeline();
    await p.load();
    await p.applyAll(liveEvent());
    advance(LIMIT_MS);
    p.start();
    const deadline = Date.now() + 5000;
    while (!lockedAll(rm) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(lockedAll(rm), true);
  });
});
