// The replay-window part of the store contract: segments written with a flush come back in order after a restart, older ones are pruned, and commits of facts are counted on every engine.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LogSegment, LogWindowWrite, SettlementRecord, Store } from '../../src/store/store.js';
import { EMPTY_BATCH, T0, eventWithMarkets, sampleEvent, sampleMarket, sampleResult } from './fixtures.js';

function segment(fromMs: number, toMs: number, toSeq = 0, bytes = 32): LogSegment {
  const data = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) data[i] = (fromMs + i * 7) & 255;
  return { from: { ms: fromMs, seq: 0 }, to: { ms: toMs, seq: toSeq }, count: 3, data };
}

function share(segments: LogSegment[], covered: number, pruneBefore = { ms: 0, seq: 0 }): LogWindowWrite {
  return { segments, covered, origin: { ms: T0 - 5000, seq: 2 }, pruneBefore };
}

const settlement = (eventId: string): SettlementRecord => ({
  eventId,
  endedAt: T0,
  updatedAt: T0,
  revision: 1,
  resolvedCount: 1,
  totalCount: 1,
  pendingCount: 0,
  header: {
    homeTeam: 'H',
    awayTeam: 'A',
    homeLogoId: null,
    awayLogoId: null,
    finalScore: { home: 1, away: 0 },
    sport: 'soccer',
    league: 'L',
    country: 'C',
    startTime: T0 - 7_000_000,
    resultRevision: 1,
  },
  marketsJson: '[]',
});

const bytesOf = (s: LogSegment): number[] => [...s.data];

export function runLogWindowStoreContract(
  name: string,
  withStore: (body: (ctx: { store: Store; restart: () => Promise<Store> }) => Promise<void>) => Promise<void>,
): void {
  describe(`Store contract (replay window): ${name}`, () => {
    it('a new store has no window: no origin, nothing stored, no fact counted', () =>
      withStore(async ({ store }) => {
        assert.deepEqual(await store.loadLogWindow(0), {
          origin: null,
          facts: 0,
          covered: 0,
          through: null,
          segments: [],
          complete: true,
          run: null,
        });
      }));

    it('segments written with flushes come back byte for byte, oldest first, with the first origin and the last end', () =>
      withStore(async ({ store, restart }) => {
        const a = segment(T0, T0 + 10, 4);
        const b = segment(T0 + 10, T0 + 900, 1, 3000);
        const c = segment(T0 + 1000, T0 + 1000, 7);
        await store.writeBatch({ ...eventWithMarkets(sampleEvent('e1'), [1]), seq: 1, logWindow: share([a], 0) });
        // Two segments in one flush (a failed flush's are written with the next), and a later origin that must not win.
        await store.writeBatch({
          ...EMPTY_BATCH,
          seq: 2,
          logWindow: { ...share([b, c], 0), origin: { ms: T0 + 1, seq: 0 } },
        });
        const reopened = await restart();
        const w = await reopened.loadLogWindow(0);
        assert.deepEqual(w.origin, { ms: T0 - 5000, seq: 2 });
        assert.deepEqual(w.through, { ms: T0 + 1000, seq: 7 });
        assert.deepEqual(
          w.segments.map((s) => [s.from, s.to, s.count]),
          [a, b, c].map((s) => [s.from, s.to, s.count]),
        );
        assert.deepEqual(w.segments.map(bytesOf), [a, b, c].map(bytesOf));
        // The newest segments only, once the bytes asked for are read (whole segments, never a part).
        assert.deepEqual(
          (await reopened.loadLogWindow(0, 3001)).segments.map((s) => s.to),
          [b.to, c.to],
        );
        assert.deepEqual(
          (await reopened.loadLogWindow(0, 1)).segments.map((s) => s.to),
          [c.to],
        );
        // Only segments ending at or after the time asked for.
        assert.deepEqual(
          (await reopened.loadLogWindow(T0 + 11)).segments.map((s) => s.to),
          [b.to, c.to],
        );
        // Whether every stored segment came back: not when the bytes or the time left some out.
        assert.equal(w.complete, true);
        assert.equal((await reopened.loadLogWindow(0, 3001)).complete, false);
        assert.equal((await reopened.loadLogWindow(T0 + 11)).complete, false);
        assert.equal(w.run, null, 'ROLE=all writes no run');
      }));

    it("scaled out, a leader's run: its first write deletes older segments, every write says its epoch, start and head", () =>
      withStore(async ({ store, restart }) => {
        // What ROLE=all (or an earlier term) stored.
        await store.writeBatch({ ...EMPTY_BATCH, logWindow: share([segment(T0, T0 + 5)], 0) });
        const run = { epoch: 7, from: { ms: T0 + 8, seq: 2 }, through: { ms: T0 + 8, seq: 2 }, reset: true };
        // The term's first write, with no entry yet: nothing of before stays, the run reaches its start.
        await store.writeBatch({ ...EMPTY_BATCH, logWindow: { ...share([], 0), run } });
        let w = await store.loadLogWindow(0);
        assert.deepEqual([w.segments.length, w.through, w.run], [0, run.through, { epoch: 7, from: run.from }]);
        const a = segment(T0 + 9, T0 + 12, 1);
        await store.writeBatch({
          ...EMPTY_BATCH,
          logWindow: { ...share([a], 0), run: { ...run, through: { ms: T0 + 12, seq: 4 }, reset: false } },
        });
        w = await (await restart()).loadLogWindow(0);
        assert.deepEqual(
          w.segments.map((s) => s.to),
          [a.to],
        );
        // The head the run reaches, as written (what an API node checks the watermark against).
        assert.deepEqual(w.through, { ms: T0 + 12, seq: 4 });
        assert.deepEqual(w.run, { epoch: 7, from: run.from });
        assert.equal(w.complete, true);
      }));

    it('a flush deletes the segments that end before its prune position, to the counter', () =>
      withStore(async ({ store }) => {
        await store.writeBatch({
          ...EMPTY_BATCH,
          logWindow: share([segment(T0, T0 + 5, 1), segment(T0 + 5, T0 + 5, 3), segment(T0 + 6, T0 + 9)], 0),
        });
        await store.writeBatch({
          ...EMPTY_BATCH,
          logWindow: share([segment(T0 + 10, T0 + 20)], 0, { ms: T0 + 5, seq: 2 }),
        });
        assert.deepEqual(
          (await store.loadLogWindow(0)).segments.map((s) => s.to),
          [
            { ms: T0 + 5, seq: 3 },
            { ms: T0 + 9, seq: 0 },
            { ms: T0 + 20, seq: 0 },
          ],
        );
      }));

    it('a restart may read only the newest segments with their bytes: older ones come with their size alone', () =>
      withStore(async ({ store, restart }) => {
        const a = segment(T0, T0 + 5, 1, 100);
        const b = segment(T0 + 5, T0 + 6, 0, 200);
        const c = segment(T0 + 7, T0 + 9, 0, 300);
        await store.writeBatch({ ...EMPTY_BATCH, logWindow: share([a, b, c], 0) });
        const reopened = await restart();
        const w = await reopened.loadLogWindow(0, Number.POSITIVE_INFINITY, 300);
        assert.deepEqual(
          w.segments.map((s) => [s.to, s.size, s.data.byteLength]),
          [
            [a.to, 100, 0],
            [b.to, 200, 0],
            [c.to, 300, 300],
          ],
        );
        assert.deepEqual(bytesOf(w.segments[2]!), bytesOf(c));
        // Whole segments: one is read with its bytes while less than the data budget was read before
        // it, and the window's byte budget still counts every segment's size.
        const some = await reopened.loadLogWindow(0, 500, 299);
        assert.deepEqual(
          some.segments.map((s) => [s.to, s.data.byteLength]),
          [
            [b.to, 0],
            [c.to, 300],
          ],
        );
      }));

    it('reads back the segments ending within a span of positions, oldest first, byte for byte (a resume past memory)', () =>
      withStore(async ({ store }) => {
        const a = segment(T0, T0 + 5, 1);
        const b = segment(T0 + 5, T0 + 5, 3, 500);
        const c = segment(T0 + 6, T0 + 9);
        const d = segment(T0 + 10, T0 + 20);
        await store.writeBatch({ ...EMPTY_BATCH, logWindow: share([a, b], 0) });
        await store.writeBatch({ ...EMPTY_BATCH, logWindow: share([c, d], 0) });
        const span = await store.readLogSegments(b.to, c.to);
        assert.deepEqual(
          span.map((s) => [s.from, s.to, s.count]),
          [b, c].map((s) => [s.from, s.to, s.count]),
        );
        assert.deepEqual(span.map(bytesOf), [b, c].map(bytesOf));
        // Bounds are exact to the counter: a segment ending just before `from` or just after `to` is left out.
        assert.deepEqual(
          (await store.readLogSegments({ ms: T0 + 5, seq: 2 }, { ms: T0 + 9, seq: 0 })).map((s) => s.to),
          [b.to, c.to],
        );
        assert.deepEqual(
          (await store.readLogSegments({ ms: T0 + 5, seq: 4 }, { ms: T0 + 19, seq: 9 })).map((s) => s.to),
          [c.to],
        );
        // A pruned span reads as nothing (the resume then answers from a snapshot).
        await store.writeBatch({ ...EMPTY_BATCH, logWindow: share([], 0, { ms: T0 + 10, seq: 0 }) });
        assert.deepEqual(await store.readLogSegments(a.to, c.to), []);
      }));

    it('results, settlements and outright commits count one fact each; a flush records how many its segments cover', () =>
      withStore(async ({ store, restart }) => {
        await store.writeBatch(eventWithMarkets(sampleEvent('e1'), [1]));
        await store.saveResult(sampleResult('e1'), EMPTY_BATCH);
        await store.saveSettlement(settlement('e1'));
        const t = { tournamentId: 't1', tournament: 'Cup', sport: 'soccer', sportId: 1 };
        await store.saveTournament(t);
        const m = {
          marketId: 1,
          market: 'Winner',
          selections: [{ selectionId: 1, selection: 'X', odds: 2 }],
          updatedAt: T0,
        };
        await store.saveOutrightMarket('t1', m);
        await store.settleOutrightMarket('t1', 1, { void: true, winners: [], settledAt: T0 }, []);
        assert.equal((await store.loadLogWindow(0)).facts, 5);
        await store.writeBatch({ ...EMPTY_BATCH, logWindow: share([segment(T0, T0 + 1)], 4) });
        const reopened = await restart();
        let w = await reopened.loadLogWindow(0);
        assert.deepEqual([w.facts, w.covered], [5, 4]);
        // A flush with no new entries but a fact's entry covered (its segment went with an earlier one).
        await reopened.writeBatch({ ...EMPTY_BATCH, logWindow: share([], 5) });
        w = await (await restart()).loadLogWindow(0);
        assert.deepEqual([w.facts, w.covered, w.segments.length], [5, 5, 1]);
      }));

    it('a flush that fails writes no segment and no counter (all of it or none)', () =>
      withStore(async ({ store }) => {
        await assert.rejects(
          store.writeBatch({
            ...EMPTY_BATCH,
            markets: [{ eventId: 'ghost', position: 0, market: sampleMarket(1) }],
            logWindow: share([segment(T0, T0 + 1)], 3),
          }),
        );
        const w = await store.loadLogWindow(0);
        assert.deepEqual([w.segments.length, w.covered, w.origin], [0, 0, null]);
      }));
  });
}
