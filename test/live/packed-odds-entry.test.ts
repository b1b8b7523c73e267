// Odds entries written in the compact form as a tick is applied: the same changes as the column form, in every consumer's view.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Market, SportEvent } from '../../src/domain/types.js';
import { ChangeLog } from '../../src/live/change-log.js';
import { decodeLogSegment } from '../../src/live/log-codec.js';
import type { LogEntry, OddsEntry } from '../../src/live/log-entry.js';
import { ReadModel } from '../../src/live/read-model.js';
import { Rng } from '../../src/feed/simulator/rng.js';
import { sportEvent } from '../helpers/sport-event.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');

function event(id: string, status: SportEvent['status'] = 'live'): SportEvent {
  return sportEvent(id, { status, startTime: T0 - 600_000 });
}

/** Markets of three outcomes, ids sparse and out of order (deltas of either sign), or beyond 2^50 when `huge`. */
function markets(n: number, huge = false): Market[] {
  const out: Market[] = [];
  for (let i = 0; i < n; i++) {
    const marketId = huge && i === n - 1 ? 2 ** 51 + 7 : 1000 + ((i * 7919) % 5003);
    out.push({
      marketId,
      key: `m${i}`,
      name: `Market ${i}`,
      outcomes: [0, 1, 2].map((j) => ({
        selectionId: marketId * 10 + j,
        code: `c${j}`,
        label: `L${j}`,
        odds: 2 + j,
        teamSide: null,
        isLocked: false,
      })),
    });
  }
  return out;
}

function setup(status: SportEvent['status'] = 'live', huge = false) {
  const entries: LogEntry[] = [];
  const log = new ChangeLog({ now: () => T0, windowMs: 3_600_000, maxBytes: 64 * 1024 * 1024 });
  log.subscribe((e) => entries.push(e));
  const rm = new ReadModel({ now: () => T0, log });
  const le = rm.putEvent(event('e1', status));
  rm.upsertMarkets(le, markets(40, huge));
  const ids = le.book.outcomeCount;
  const selectionIds: number[] = [];
  for (let o = 0; o < ids; o++) selectionIds.push(le.book.selectionId(o));
  return { rm, le, log, entries, selectionIds };
}

/** A random tick: prices (some with more decimals than thousandths, some unchanged), locks, lock-only changes. */
function tick(rng: Rng, outcomeCount: number, selectionIds: number[], book: { odds(o: number): number }) {
  const n = 1 + Math.floor(rng.next() * 60);
  const outcomes = new Int32Array(n);
  const odds = new Float64Array(n);
  const locks = new Int8Array(n);
  const ids = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const o = Math.floor(rng.next() * outcomeCount);
    outcomes[k] = o;
    ids[k] = selectionIds[o] as number;
    const r = rng.next();
    odds[k] =
      r < 0.1
        ? NaN
        : r < 0.2
          ? book.odds(o)
          : r < 0.3
            ? 1.01 + Math.round(rng.next() * 1e6) / 1e5
            : Math.round((1.01 + rng.next() * 30) * 100) / 100;
    locks[k] = rng.next() < 0.7 ? -1 : rng.next() < 0.5 ? 1 : 0;
  }
  return { outcomes, odds, locks, ids };
}

/** What the entry must say: each moved change's market, selection, price and lock as the book had them when it moved. */
function columnsOf(e: OddsEntry) {
  const c = e.changes;
  return [...c.selectionIds].map((s, k) => [c.marketIds[k], s, c.odds[k], c.locked[k]]);
}

describe('odds entries packed as a tick is applied', () => {
  it('hold the moved changes, in order, with the prices and locks the book took, in every form', () => {
    const rng = new Rng(30);
    const { rm, le, log, entries, selectionIds } = setup();
    for (let round = 0; round < 200; round++) {
      const t = tick(rng, le.book.outcomeCount, selectionIds, le.book);
      // Expected: replay the tick on a copy of the state, change by change.
      const expected: (number | undefined)[][] = [];
      const odds = selectionIds.map((_, o) => le.book.odds(o));
      const locked = selectionIds.map((_, o) => le.book.isLocked(o));
      for (let k = 0; k < t.outcomes.length; k++) {
        const o = t.outcomes[k] as number;
        const price = t.odds[k] as number;
        const lock = t.locks[k] as number;
        let moved = false;
        if (!Number.isNaN(price) && odds[o] !== price) {
          odds[o] = price;
          moved = true;
        }
        if (lock >= 0 && locked[o] !== (lock === 1)) {
          locked[o] = lock === 1;
          moved = true;
        }
        if (moved)
          expected.push([le.book.marketId(le.book.marketOfOutcome(o)), selectionIds[o], odds[o], locked[o] ? 1 : 0]);
      }
      const before = entries.length;
      const moved = rm.applyPrices(le, t.outcomes, t.odds, t.locks, T0 + round, t.ids);
      assert.equal(moved, expected.length);
      if (moved === 0) {
        assert.equal(entries.length, before, 'nothing moved: nothing logged');
        continue;
      }
      const entry = entries.at(-1) as OddsEntry;
      assert.equal(entry.kind, 'odds');
      assert.equal(entry.count, moved);
      assert.notEqual(entry.packed, null, 'ids within 2^50 are packed');
      assert.deepEqual(columnsOf(entry), expected);
      assert.deepEqual(log.encodedOddsOf(entry), entry.packed, 'the history and odds rows copy the packed bytes');
    }
    // The window's segments hold the same changes (the writer copied the packed bytes).
    log.seal();
    const odds = entries.filter((e): e is OddsEntry => e.kind === 'odds');
    const decoded: OddsEntry[] = [];
    for (const seg of (log as unknown as { segments: { data: Buffer }[] }).segments) {
      for (const e of decodeLogSegment(seg.data)) if (e.kind === 'odds') decoded.push(e);
    }
    assert.equal(decoded.length, odds.length);
    for (let i = 0; i < odds.length; i++) assert.deepEqual(columnsOf(decoded[i]!), columnsOf(odds[i]!));
  });

  it('fold a status lock into each change (a suspended event shows every selection locked)', () => {
    const { rm, le, entries, selectionIds } = setup('suspended');
    const moved = rm.applyPrices(
      le,
      Int32Array.of(0, 4),
      Float64Array.of(7.5, 8.25),
      Int8Array.of(-1, 0),
      T0,
      Float64Array.of(selectionIds[0]!, selectionIds[4]!),
    );
    assert.equal(moved, 2);
    const entry = entries.at(-1) as OddsEntry;
    assert.deepEqual([...entry.changes.locked], [1, 1]);
    assert.deepEqual([...entry.changes.odds], [7.5, 8.25]);
  });

  it('fall back to columns for ids the compact form cannot hold', () => {
    const { rm, le, entries, selectionIds } = setup('live', true);
    const last = le.book.outcomeCount - 1;
    const moved = rm.applyPrices(
      le,
      Int32Array.of(0, last),
      Float64Array.of(9.5, 11),
      Int8Array.of(-1, 1),
      T0,
      Float64Array.of(selectionIds[0]!, selectionIds[last]!),
    );
    assert.equal(moved, 2);
    const entry = entries.at(-1) as OddsEntry;
    assert.equal(entry.packed, null);
    assert.deepEqual(columnsOf(entry), [
      [le.book.marketId(le.book.marketOfOutcome(0)), selectionIds[0], 9.5, 0],
      [2 ** 51 + 7, selectionIds[last], 11, 1],
    ]);
  });
});
