// Pipeline behaviour against the real embedded store: lifecycle, idempotency, write-behind, results, restart.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { FeedMessage } from '../../src/feed/messages.js';
import type { LogEntry } from '../../src/live/change-log.js';
import { compareLogPositions } from '../../src/live/log-position.js';
import { decodeOdds } from '../../src/live/odds-codec.js';
import { ReadModel } from '../../src/live/read-model.js';
import { MAX_PENDING_MARKET_DOCS, Pipeline } from '../../src/pipeline/pipeline.js';
import { storedMarkets } from '../helpers/stored-markets.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store, WriteBatch } from '../../src/store/store.js';
import { until } from '../helpers/until.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const silent = { warn: () => undefined, error: () => undefined };

interface Harness {
  pipeline: Pipeline;
  readModel: ReadModel;
  store: Store;
  changes: LogEntry[];
  clock: { t: number };
}

let dir: string;
const opened: Array<{ pipeline: Pipeline; store: Store }> = [];

async function harness(store?: Store): Promise<Harness> {
  const s = store ?? (await openSqliteStore({ dataDir: dir }));
  const clock = { t: T0 };
  const readModel = new ReadModel({ now: () => clock.t });
  const changes: LogEntry[] = [];
  readModel.log.subscribe((c) => changes.push(c));
  const pipeline = new Pipeline({
    readModel,
    store: s,
    now: () => clock.t,
    flushIntervalMs: 60_000,
    endedRetentionMs: 24 * 3_600_000,
    log: silent,
  });
  await pipeline.load();
  opened.push({ pipeline, store: s });
  return { pipeline, readModel, store: s, changes, clock };
}

const fixture = (id = 'e1', extra: Record<string, unknown> = {}): FeedMessage =>
  ({
    type: 'fixture',
    event_id: id,
    sport: 'soccer',
    league: { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 },
    home_team: 'Arsenal',
    away_team: 'Chelsea',
    start_time: '2026-03-01T15:00:00Z',
    ...extra,
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
          { selection_id: 11, code: 'home', label: 'Arsenal', odds: 2.1, team_side: 'home' },
          { selection_id: 12, code: 'draw', label: 'Draw', odds: 3.4 },
          { selection_id: 13, code: 'away', label: 'Chelsea', odds: 3.6, team_side: 'away' },
        ],
      },
      {
        market_id: 2,
        key: 'totals:2.50',
        name: 'Total Goals 2.5',
        outcomes: [
          { selection_id: 21, code: 'over', label: 'Over 2.5', odds: 1.9 },
          { selection_id: 22, code: 'under', label: 'Under 2.5', odds: 1.9 },
        ],
      },
    ],
  }) as FeedMessage;

const msg = (m: Record<string, unknown>): FeedMessage => m as unknown as FeedMessage;

/** A markets message of `count` two-way player markets, selections numbered 1..2 × count. */
const bigMarkets = (id: string, count: number): FeedMessage =>
  ({
    type: 'markets',
    event_id: id,
    markets: Array.from({ length: count }, (_v, i) => ({
      market_id: i + 1,
      key: `player_goals_${i + 1}:0.5`,
      name: `Player ${i + 1} goals`,
      outcomes: [
        { selection_id: 2 * i + 1, code: 'over', label: 'Over 0.5', odds: 3.2 },
        { selection_id: 2 * i + 2, code: 'under', label: 'Under 0.5', odds: 1.3 },
      ],
    })),
  }) as FeedMessage;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pipeline-test-'));
});

afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.pipeline.stop().catch(() => undefined);
    await o.store.close().catch(() => undefined);
  }
  await rm(dir, { recursive: true, force: true });
});

describe('pipeline: applying messages', () => {
  it('a fixture creates a prematch event; the same fixture again changes nothing', async () => {
    const h = await harness();
    assert.deepEqual(await h.pipeline.apply(fixture()), { ok: true, changed: true });
    const before = h.readModel.get('e1');
    assert.equal(before?.event.status, 'prematch');
    const version = before?.version;
    assert.deepEqual(await h.pipeline.apply(fixture()), { ok: true, changed: false });
    assert.equal(h.readModel.get('e1')?.version, version);
    assert.equal(h.pipeline.counters.unchanged, 1);
  });

  it('market keys are stored in their canonical spelling', async () => {
    const h = await harness();
    await h.pipeline.applyAll([fixture(), markets()]);
    assert.deepEqual(
      h.readModel
        .get('e1')
        ?.book.markets()
        .map((m) => m.key),
      ['1x2', 'totals:2.5'],
    );
  });

  it('an odds message naming one unknown selection is rejected whole: known selections keep their odds', async () => {
    const h = await harness();
    await h.pipeline.applyAll([fixture(), markets()]);
    const r = await h.pipeline.apply(
      msg({
        type: 'odds',
        event_id: 'e1',
        changes: [
          { selection_id: 11, odds: 5 },
          { selection_id: 99, odds: 2 },
        ],
      }),
    );
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.message, /99/);
    const book = h.readModel.get('e1')?.book;
    assert.equal(book?.odds(book.indexOfSelection(11)), 2.1);
  });

  it('a selection id already used by another market of the event is rejected', async () => {
    const h = await harness();
    await h.pipeline.applyAll([fixture(), markets()]);
    const r = await h.pipeline.apply(
      msg({
        type: 'markets',
        event_id: 'e1',
        markets: [
          {
            market_id: 3,
            key: 'btts',
            name: 'BTTS',
            outcomes: [{ selection_id: 11, code: 'yes', label: 'Yes', odds: 1.8 }],
          },
        ],
      }),
    );
    assert.equal(r.ok, false);
    assert.equal(h.readModel.get('e1')?.book.indexOfMarket(3), -1);
  });

  it('removing unknown market ids is a harmless no-op; removed selections no longer take odds', async () => {
    const h = await harness();
    await h.pipeline.applyAll([fixture(), markets()]);
    assert.deepEqual(await h.pipeline.apply(msg({ type: 'remove_markets', event_id: 'e1', market_ids: [77] })), {
      ok: true,
      changed: false,
    });
    assert.deepEqual(await h.pipeline.apply(msg({ type: 'remove_markets', event_id: 'e1', market_ids: [2] })), {
      ok: true,
      changed: true,
    });
    const r = await h.pipeline.apply(msg({ type: 'odds', event_id: 'e1', changes: [{ selection_id: 21, odds: 2 }] }));
    assert.equal(r.ok, false);
  });

  it('a status move the lifecycle forbids is rejected and changes nothing', async () => {
    const h = await harness();
    await h.pipeline.apply(fixture());
    const r = await h.pipeline.apply(msg({ type: 'status', event_id: 'e1', status: 'suspended' }));
    assert.equal(r.ok, false);
    assert.equal(h.readModel.get('e1')?.event.status, 'prematch');
  });

  it('every applied change is appended to the change log with its kind, in order of position', async () => {
    const h = await harness();
    await h.pipeline.applyAll([
      fixture(),
      markets(),
      msg({ type: 'status', event_id: 'e1', status: 'live' }),
      msg({ type: 'score', event_id: 'e1', score: { home: 1, away: 0 }, period: '1H', clock: '12:00' }),
      msg({ type: 'odds', event_id: 'e1', changes: [{ selection_id: 11, is_locked: true }] }),
    ]);
    assert.deepEqual(
      h.changes.map((c) => c.kind),
      ['fixture', 'markets', 'status', 'score', 'odds'],
    );
    for (let i = 1; i < h.changes.length; i++) {
      assert.ok(compareLogPositions(h.changes[i - 1]!.position, h.changes[i]!.position) < 0, 'positions grow');
    }
  });

  it('says once per batch, after its last change, that the batch is complete (streams are written then)', async () => {
    const h = await harness();
    const settled: number[] = [];
    h.readModel.log.onSettled(() => settled.push(h.changes.length));
    await h.pipeline.applyAll([fixture(), markets(), msg({ type: 'status', event_id: 'e1', status: 'live' })]);
    assert.deepEqual(settled, [3]);
    // A batch refused whole is complete too (it changed nothing).
    await h.pipeline.applyAll([msg({ type: 'status', event_id: 'nope', status: 'live' })]);
    assert.deepEqual(settled, [3, 3]);
  });
});

describe('pipeline: durability', () => {
  it('a result is in the store as soon as it is acknowledged, without waiting for a flush', async () => {
    const h = await harness();
    await h.pipeline.applyAll([fixture(), markets(), msg({ type: 'status', event_id: 'e1', status: 'live' })]);
    const r = await h.pipeline.apply(
      msg({
        type: 'result',
        event_id: 'e1',
        status: 'ended',
        score: { home: 2, away: 1 },
        ended_at: '2026-03-01T16:55:00Z',
      }),
    );
    assert.deepEqual(r, { ok: true, changed: true });
    const stored = await h.store.getResult('e1');
    assert.equal(stored?.status, 'ended');
    assert.deepEqual(stored?.score, { home: 2, away: 1 });
    assert.equal(stored?.revision, 1);
    // The event row was written in the same transaction: a restart sees it ended.
    const [loaded] = await h.store.loadEvents();
    assert.equal(loaded?.event.status, 'ended');
  });

  it('the same result again is a no-op; a different score is a correction with a higher revision', async () => {
    const h = await harness();
    await h.pipeline.applyAll([fixture(), msg({ type: 'status', event_id: 'e1', status: 'live' })]);
    const result = { type: 'result', event_id: 'e1', status: 'ended', score: { home: 2, away: 1 } };
    await h.pipeline.apply(msg(result));
    assert.deepEqual(await h.pipeline.apply(msg(result)), { ok: true, changed: false });
    assert.deepEqual(await h.pipeline.apply(msg({ ...result, score: { home: 2, away: 2 } })), {
      ok: true,
      changed: true,
    });
    const stored = await h.store.getResult('e1');
    assert.equal(stored?.revision, 2);
    assert.deepEqual(stored?.score, { home: 2, away: 2 });
  });

  it('a cancelled status is archived as a result the result endpoint can answer forever', async () => {
    const h = await harness();
    await h.pipeline.apply(fixture());
    await h.pipeline.apply(msg({ type: 'status', event_id: 'e1', status: 'cancelled' }));
    const stored = await h.store.getResult('e1');
    assert.equal(stored?.status, 'cancelled');
    assert.equal(h.readModel.get('e1')?.event.status, 'cancelled');
  });

  it('live odds reach the store on the next flush, coalesced', async () => {
    const h = await harness();
    await h.pipeline.applyAll([fixture(), markets()]);
    for (const odds of [2.2, 2.3, 2.4]) {
      await h.pipeline.apply(msg({ type: 'odds', event_id: 'e1', changes: [{ selection_id: 11, odds }] }));
    }
    assert.ok(h.pipeline.backlog > 0);
    await h.pipeline.flush();
    assert.equal(h.pipeline.backlog, 0);
    const [loaded] = await h.store.loadEvents();
    assert.equal(storedMarkets(loaded)[0]?.outcomes[0]?.odds, 2.4);
  });

  it('live odds are stored as compact rows; after many flushes a full row replaces the older ones', async () => {
    const h = await harness();
    await h.pipeline.applyAll([fixture(), markets()]);
    await h.pipeline.flush();
    for (let i = 0; i < 120; i++) {
      await h.pipeline.apply(
        msg({
          type: 'odds',
          event_id: 'e1',
          ts: new Date(T0 + (i + 1) * 1000).toISOString(),
          changes: [
            { selection_id: 11, odds: 2 + i / 100 },
            { selection_id: 22, is_locked: i % 2 === 0 },
          ],
        }),
      );
      await h.pipeline.flush();
    }
    const [stored] = await h.store.loadEvents();
    assert.ok((stored?.oddsLog.length ?? 0) <= 51, `old rows are pruned (${stored?.oddsLog.length} rows)`);
    assert.equal(storedMarkets(stored)[0]?.outcomes[0]?.odds, 2.1, 'the book is not imaged again for price changes');
    const updatedBefore = h.readModel.get('e1')?.event.updatedAt;
    assert.equal(updatedBefore, T0 + 120_000);
    await h.pipeline.stop();
    const again = await harness(await openSqliteStore({ dataDir: dir }));
    const book = again.readModel.get('e1')?.book;
    assert.ok(book);
    assert.equal(book.odds(book.indexOfSelection(11)), 3.19);
    assert.equal(book.isLocked(book.indexOfSelection(22)), false);
    assert.equal(book.odds(book.indexOfSelection(12)), 3.4, 'untouched selections keep their document odds');
    assert.equal(again.readModel.get('e1')?.event.updatedAt, updatedBefore, 'updated_at travels with the odds rows');
  });

  it('a market document written after odds rows wins over them on restart', async () => {
    const h = await harness();
    await h.pipeline.applyAll([fixture(), markets()]);
    await h.pipeline.apply(msg({ type: 'odds', event_id: 'e1', changes: [{ selection_id: 11, odds: 5 }] }));
    await h.pipeline.flush();
    // The producer re-sends the market with a new price: a new document, newer than the odds row.
    const m = markets() as unknown as { markets: Array<{ outcomes: Array<{ odds: number }> }> };
    const first = m.markets[0]?.outcomes[0];
    if (first) first.odds = 2.75;
    await h.pipeline.apply(m as unknown as FeedMessage);
    await h.pipeline.stop();
    const again = await harness(await openSqliteStore({ dataDir: dir }));
    const book = again.readModel.get('e1')?.book;
    assert.equal(book?.odds(book.indexOfSelection(11)), 2.75);
  });

  it('odds moved over many flushes, by events of different sizes, all come back after a restart', async () => {
    // Flushes hand their per-event bookkeeping on to the next events; none may carry a stale mark.
    const h = await harness();
    const sizes = { a: 30, b: 7, c: 55 };
    for (const [id, n] of Object.entries(sizes)) await h.pipeline.applyAll([fixture(id), bigMarkets(id, n)]);
    await h.pipeline.flush();
    let seed = 3;
    const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const expected = new Map<string, number>();
    for (let round = 0; round < 12; round++) {
      // Each round: a few events move some selections (often the same ones again), then a flush.
      for (const [id, n] of Object.entries(sizes)) {
        if (random() < 0.3) continue;
        const changes = Array.from({ length: 1 + Math.floor(random() * 6) }, () => ({
          selection_id: 1 + Math.floor(random() * Math.min(2 * n, 12)),
          odds: Math.round((1.5 + random() * 8) * 100) / 100,
        }));
        const r = await h.pipeline.apply(msg({ type: 'odds', event_id: id, changes }));
        assert.equal(r.ok, true);
        for (const c of changes) expected.set(`${id}/${c.selection_id}`, c.odds);
      }
      await h.pipeline.flush();
    }
    assert.ok(expected.size > 10);
    await h.pipeline.stop();
    const again = await harness(await openSqliteStore({ dataDir: dir }));
    for (const [key, odds] of expected) {
      const [id, sel] = key.split('/') as [string, string];
      const b = again.readModel.get(id)?.book;
      assert.equal(b?.odds(b.indexOfSelection(Number(sel))), odds, key);
    }
  });

  it("an event-wide lock is not stored as the selections' own locks (the odds entries fold it in)", async () => {
    const h = await harness();
    await h.pipeline.applyAll([fixture(), markets(), msg({ type: 'status', event_id: 'e1', status: 'live' })]);
    await h.pipeline.flush();
    await h.pipeline.apply(msg({ type: 'odds', event_id: 'e1', changes: [{ selection_id: 11, is_locked: true }] }));
    await h.pipeline.flush();
    await h.pipeline.apply(msg({ type: 'status', event_id: 'e1', status: 'suspended' }));
    // Prices moved while the whole event is locked: each change's lock is the event's.
    await h.pipeline.apply(msg({ type: 'odds', event_id: 'e1', changes: [{ selection_id: 12, odds: 3.9 }] }));
    await h.pipeline.flush();
    await h.pipeline.apply(msg({ type: 'odds', event_id: 'e1', changes: [{ selection_id: 13, odds: 4.1 }] }));
    await h.pipeline.flush();
    await h.pipeline.stop();
    const again = await harness(await openSqliteStore({ dataDir: dir }));
    const le = again.readModel.get('e1');
    assert.ok(le);
    const { book } = le;
    assert.equal(le.event.status, 'suspended');
    assert.equal(book.isLocked(book.indexOfSelection(11)), true, 'its own lock');
    assert.equal(book.isLocked(book.indexOfSelection(12)), false, 'locked only by the suspension');
    assert.equal(book.isLocked(book.indexOfSelection(13)), false, 'locked only by the suspension');
    assert.equal(book.odds(book.indexOfSelection(12)), 3.9);
    assert.equal(book.odds(book.indexOfSelection(13)), 4.1);
  });

  it('odds rows hold every change of the flush in order: a selection moved twice comes back at its last price', async () => {
    const h = await harness();
    await h.pipeline.applyAll([fixture(), markets()]);
    await h.pipeline.flush();
    await h.pipeline.applyAll([
      msg({ type: 'odds', event_id: 'e1', changes: [{ selection_id: 11, odds: 2.2 }] }),
      msg({ type: 'odds', event_id: 'e1', changes: [{ selection_id: 21, is_locked: true }] }),
      msg({ type: 'odds', event_id: 'e1', changes: [{ selection_id: 11, odds: 2.3 }] }),
      msg({ type: 'odds', event_id: 'e1', changes: [{ selection_id: 21, is_locked: false, odds: 1.8 }] }),
    ]);
    await h.pipeline.flush();
    const [stored] = await h.store.loadEvents();
    const seen: Array<[number, number, boolean]> = [];
    for (const r of stored?.oddsLog ?? []) decodeOdds(r.data, (id, o, locked) => seen.push([id, o, locked]));
    assert.deepEqual(seen, [
      [11, 2.2, false],
      [21, 1.9, true],
      [11, 2.3, false],
      [21, 1.8, false],
    ]);
    await h.pipeline.stop();
    const again = await harness(await openSqliteStore({ dataDir: dir }));
    const book = again.readModel.get('e1')?.book;
    assert.equal(book?.odds(book.indexOfSelection(11)), 2.3);
    assert.equal(book?.odds(book.indexOfSelection(21)), 1.8);
    assert.equal(book?.isLocked(book.indexOfSelection(21)), false);
  });

  it('a flush writes its odds rows into one block, reused by the next flush once the store has taken it', async () => {
    const real = await openSqliteStore({ dataDir: dir });
    const blocks: ArrayBufferLike[] = [];
    const seen: Array<Map<number, number>> = [];
    const capturing: Store = {
      ...real,
      writeBatch: async (b: WriteBatch) => {
        const rows = b.oddsLog ?? [];
        if (rows.length > 0) {
          assert.equal(new Set(rows.map((r) => r.data.buffer)).size, 1, 'one block per flush');
          blocks.push(rows[0]!.data.buffer);
          // What the store reads at the time of the write.
          const odds = new Map<number, number>();
          for (const r of rows) decodeOdds(r.data, (id, o) => odds.set(id, o));
          seen.push(odds);
        }
        return real.writeBatch(b);
      },
    };
    const h = await harness(capturing);
    await h.pipeline.applyAll([fixture('a'), markets('a'), fixture('b'), markets('b')]);
    await h.pipeline.flush();
    for (const [round, price] of [1.5, 1.7, 1.9].entries()) {
      await h.pipeline.applyAll([
        msg({ type: 'odds', event_id: 'a', changes: [{ selection_id: 11, odds: price }] }),
        msg({
          type: 'odds',
          event_id: 'b',
          changes: [
            { selection_id: 12, odds: price + 1 },
            { selection_id: 13, odds: 9 },
          ],
        }),
      ]);
      await h.pipeline.flush();
      assert.equal(seen[round]?.get(11), price);
      assert.equal(seen[round]?.get(12), price + 1);
    }
    assert.equal(blocks.length, 3);
    assert.equal(blocks[1], blocks[0], "the second flush reused the first one's block");
    assert.equal(blocks[2], blocks[0]);
  });

  it('feed bodies applied one after another and at once reuse the odds arena without mixing their changes', async () => {
    const h = await harness();
    await h.pipeline.applyAll([fixture('a'), markets('a'), fixture('b'), markets('b')]);
    const body = (id: string, price: number): Uint8Array =>
      new TextEncoder().encode(
        [11, 12, 13]
          .map((sel, k) =>
            JSON.stringify({ type: 'odds', event_id: id, changes: [{ selection_id: sel, odds: price + k }] }),
          )
          .join('\n'),
      );
    const odds = (id: string): number[] => {
      const b = h.readModel.get(id)!.book;
      return [11, 12, 13].map((sel) => b.odds(b.indexOfSelection(sel)));
    };
    for (const price of [2, 3, 4]) {
      const r = await h.pipeline.applyNdjson(body('a', price));
      assert.equal(r.accepted, 3);
      assert.deepEqual(odds('a'), [price, price + 1, price + 2]);
    }
    // Two bodies in flight together: the second parses while the first still holds the arena.
    const [ra, rb] = await Promise.all([h.pipeline.applyNdjson(body('a', 5)), h.pipeline.applyNdjson(body('b', 7))]);
    assert.equal(ra.accepted + rb.accepted, 6);
    assert.deepEqual(odds('a'), [5, 6, 7]);
    assert.deepEqual(odds('b'), [7, 8, 9]);
  });

  it('holds the feed back while too many market documents wait for a slow store, then goes on', async () => {
    const real = await openSqliteStore({ dataDir: dir });
    // A store whose flushes finish only when the test lets them.
    const gates: Array<() => void> = [];
    const written: number[] = [];
    const slow: Store = {
      ...real,
      writeBatch: async (b: WriteBatch) => {
        await new Promise<void>((resolve) => gates.push(resolve));
        written.push((b.bookImages ?? []).length);
        return real.writeBatch(b);
      },
    };
    const h = await harness(slow);
    const half = Math.ceil(MAX_PENDING_MARKET_DOCS / 2) + 1;
    // Two events of just over half the bound each: the third message finds the bound passed.
    let applied = false;
    const feeding = h.pipeline
      .applyAll([fixture('a'), bigMarkets('a', half), fixture('b'), bigMarkets('b', half), fixture('c')])
      .then((outcomes) => {
        applied = true;
        return outcomes;
      });
    while (gates.length === 0) await new Promise((r) => setImmediate(r));
    // The flush it started is waiting on the store, and so is the feed: 'c' is not applied yet.
    assert.equal(applied, false);
    assert.equal(h.readModel.get('c'), undefined);
    assert.equal(h.pipeline.counters.backpressureWaits, 1);
    gates.shift()?.();
    const outcomes = await feeding;
    assert.ok(outcomes.every((o) => o.ok));
    assert.deepEqual(written, [2], 'both big events written, as an image each');
    assert.ok(h.readModel.get('c') !== undefined);
    // The next flush is the timer's again: nothing waits for it.
    const flushed = h.pipeline.flush();
    gates.shift()?.();
    await flushed;
    assert.equal(h.pipeline.backlog, 0);
  });

  it('stopping while a timer flush is writing also writes what came after it (graceful shutdown loses nothing)', async () => {
    const real = await openSqliteStore({ dataDir: dir });
    const gates: Array<() => void> = [];
    const slow: Store = {
      ...real,
      writeBatch: async (b: WriteBatch) => {
        await new Promise<void>((resolve) => gates.push(resolve));
        return real.writeBatch(b);
      },
    };
    const h = await harness(slow);
    await h.pipeline.applyAll([fixture('a'), markets('a')]);
    const first = h.pipeline.flush();
    while (gates.length === 0) await new Promise((r) => setImmediate(r));
    // While the first batch is being written, a price moves.
    await h.pipeline.applyAll([msg({ type: 'odds', event_id: 'a', changes: [{ selection_id: 11, odds: 4.2 }] })]);
    const stopping = h.pipeline.stop();
    gates.shift()?.();
    await first;
    // The stop writes the rest in a batch of its own (waited for a bounded while: without it, none comes).
    await until('the stop’s own batch', () => gates.length > 0, 10_000, 1).catch(() => undefined);
    assert.equal(gates.length, 1, 'stop() wrote the changes that came during the timer flush');
    gates.shift()?.();
    await stopping;
    assert.equal(h.pipeline.backlog, 0);
    const [loaded] = await real.loadEvents();
    const prices = new Map<number, number>();
    for (const r of loaded?.oddsLog ?? []) decodeOdds(r.data, (id, o) => prices.set(id, o));
    assert.equal(prices.get(11), 4.2);
  });

  it('a failed flush keeps its changes pending and the next flush writes them', async () => {
    const real = await openSqliteStore({ dataDir: dir });
    let failNext = true;
    const flaky: Store = {
      ...real,
      kind: real.kind,
      migrate: () => real.migrate(),
      ping: () => real.ping(),
      loadEvents: () => real.loadEvents(),
      saveResult: (r, b) => real.saveResult(r, b),
      getResult: (id) => real.getResult(id),
      findApiKeyByHash: (h) => real.findApiKeyByHash(h),
      saveApiKey: (k) => real.saveApiKey(k),
      listApiKeys: () => real.listApiKeys(),
      close: () => real.close(),
      writeBatch: (b: WriteBatch) => {
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error('disk full'));
        }
        return real.writeBatch(b);
      },
    };
    const h = await harness(flaky);
    await h.pipeline.applyAll([fixture(), markets()]);
    await h.pipeline.flush();
    assert.equal(h.pipeline.counters.flushFailures, 1);
    assert.ok(h.pipeline.backlog > 0);
    await h.pipeline.flush();
    assert.equal(h.pipeline.backlog, 0);
    const [loaded] = await real.loadEvents();
    assert.equal(storedMarkets(loaded).length, 2);
  });

  it('a result is acknowledged only once a flush carrying its markets has committed (a store running both at once)', async () => {
    const real = await openSqliteStore({ dataDir: dir });
    // A store like PostgreSQL's pool: the flush's transaction is still on its way when the result
    // arrives, and the result's own commit would otherwise land first.
    let releaseFlush: () => void = () => undefined;
    const slow: Store = Object.create(real) as Store;
    slow.writeBatch = (b: WriteBatch) =>
      new Promise<void>((resolve, reject) => {
        releaseFlush = () => void real.writeBatch(b).then(resolve, reject);
      });
    const h = await harness(slow);
    await h.pipeline.applyAll([fixture(), markets(), msg({ type: 'status', event_id: 'e1', status: 'live' })]);
    const flushing = h.pipeline.flush(); // takes the markets and waits
    let acknowledged = false;
    const ack = h.pipeline
      .apply(msg({ type: 'result', event_id: 'e1', status: 'ended', score: { home: 1, away: 0 } }))
      .then(() => (acknowledged = true));
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(acknowledged, false, 'not acknowledged while the markets are not stored');
    releaseFlush();
    await flushing;
    await ack;
    const [stored] = await real.loadEvents();
    assert.equal(stored?.event.status, 'ended');
    assert.equal(storedMarkets(stored).length, 2, 'the markets are stored with the result');
  });

  it('a restart restores events, markets in order and scores; new markets are ordered after the old ones', async () => {
    const h = await harness();
    await h.pipeline.applyAll([
      fixture(),
      markets(),
      msg({ type: 'status', event_id: 'e1', status: 'live' }),
      msg({ type: 'score', event_id: 'e1', score: { home: 1, away: 0 }, period: '1H', clock: '20:00' }),
      msg({ type: 'remove_markets', event_id: 'e1', market_ids: [1] }),
    ]);
    await h.pipeline.stop();
    const again = await harness(await openSqliteStore({ dataDir: dir }));
    const le = again.readModel.get('e1');
    assert.equal(le?.event.status, 'live');
    assert.deepEqual(le?.event.score, { home: 1, away: 0 });
    await again.pipeline.apply(
      msg({
        type: 'markets',
        event_id: 'e1',
        markets: [
          {
            market_id: 5,
            key: 'btts',
            name: 'Both Teams To Score',
            outcomes: [{ selection_id: 51, code: 'yes', label: 'Yes', odds: 1.7 }],
          },
        ],
      }),
    );
    await again.pipeline.stop();
    const third = await harness(await openSqliteStore({ dataDir: dir }));
    const book = third.readModel.get('e1')?.book.markets() ?? [];
    assert.deepEqual(
      book.map((m) => [m.marketId, m.withdrawn === true]),
      [
        [1, true],
        [2, false],
        [5, false],
      ],
      'the withdrawn market is kept (it still settles) and the new one comes last',
    );
  });

  it("an event's markets are stored as one image; a few changed later go as documents over it, many as a new image", async () => {
    const h = await harness();
    await h.pipeline.applyAll([fixture(), bigMarkets('e1', 100)]);
    await h.pipeline.flush();
    const [first] = await h.store.loadEvents();
    assert.ok(first?.image !== null, 'the first write of a book is its image');
    assert.deepEqual(first?.markets, []);
    // A price moves, then a market is re-sent repriced and one is taken off: two documents, after the odds row.
    await h.pipeline.apply(msg({ type: 'odds', event_id: 'e1', changes: [{ selection_id: 1, odds: 4.5 }] }));
    await h.pipeline.flush();
    const resent = bigMarkets('e1', 2) as unknown as { markets: Array<{ outcomes: Array<{ odds: number }> }> };
    resent.markets[1]!.outcomes[0]!.odds = 7.25;
    resent.markets.splice(0, 1);
    await h.pipeline.applyAll([
      resent as unknown as FeedMessage,
      msg({ type: 'remove_markets', event_id: 'e1', market_ids: [50] }),
    ]);
    await h.pipeline.flush();
    const [second] = await h.store.loadEvents();
    assert.equal(second?.image?.seq, first?.image?.seq, 'the image is not written again for two markets');
    assert.deepEqual(
      second?.markets.map((m) => m.marketId).sort((a, b) => a - b),
      [2, 50],
    );
    await h.pipeline.stop();
    const again = await harness(await openSqliteStore({ dataDir: dir }));
    const book = again.readModel.get('e1')?.book;
    assert.ok(book);
    assert.equal(book.marketCount, 100);
    assert.equal(book.odds(book.indexOfSelection(1)), 4.5, 'the odds row over the image');
    assert.equal(book.odds(book.indexOfSelection(3)), 7.25, 'the document over the image');
    assert.equal(book.isWithdrawn(book.indexOfMarket(50)), true);
    assert.deepEqual(
      book.markets().map((m) => m.marketId),
      Array.from({ length: 100 }, (_, i) => i + 1),
      'documents keep their markets in place',
    );
    // After a restart the first change images the event again (what is stored over it is not known).
    await again.pipeline.apply(msg({ type: 'remove_markets', event_id: 'e1', market_ids: [60] }));
    await again.pipeline.flush();
    const [third] = await again.store.loadEvents();
    assert.ok((third?.image?.seq ?? 0) > (first?.image?.seq ?? 0));
    assert.deepEqual(third?.markets, [], 'the documents under the new image go');
    // Many markets at once (more than 64): a new image rather than their documents.
    await again.pipeline.apply(msg({ type: 'remove_markets', event_id: 'e1', all: true }));
    await again.pipeline.flush();
    const [fourth] = await again.store.loadEvents();
    assert.ok((fourth?.image?.seq ?? 0) > (third?.image?.seq ?? 0));
    assert.deepEqual(fourth?.markets, []);
    assert.deepEqual(
      storedMarkets(fourth).filter((m) => m.withdrawn !== true),
      [],
    );
  });

  it('final events leave the read model after the retention window; their results stay', async () => {
    const h = await harness();
    await h.pipeline.applyAll([
      fixture(),
      msg({ type: 'status', event_id: 'e1', status: 'live' }),
      msg({ type: 'result', event_id: 'e1', status: 'ended', score: { home: 0, away: 0 } }),
    ]);
    h.clock.t += 23 * 3_600_000;
    assert.equal(h.pipeline.sweep(), 0);
    h.clock.t += 2 * 3_600_000;
    assert.equal(h.pipeline.sweep(), 1);
    assert.equal(h.readModel.get('e1'), undefined);
    assert.equal((await h.pipeline.result('e1'))?.status, 'ended');
  });

  it('final player statistics are kept on the event and survive a restart', async () => {
    const h = await harness();
    await h.pipeline.applyAll([
      fixture(),
      msg({ type: 'status', event_id: 'e1', status: 'live' }),
      msg({ type: 'result', event_id: 'e1', status: 'ended', score: { home: 1, away: 0 } }),
      msg({
        type: 'stats',
        event_id: 'e1',
        final: true,
        players: [{ player_id: 'p9', name: 'B. Saka', team: 'home', goals: 1, assists: 0 }],
      }),
    ]);
    await h.pipeline.stop();
    const again = await harness(await openSqliteStore({ dataDir: dir }));
    assert.deepEqual(again.readModel.get('e1')?.event.playerStats, {
      final: true,
      players: [{ playerId: 'p9', name: 'B. Saka', team: 'home', counters: { goals: 1, assists: 0 } }],
    });
  });
});
