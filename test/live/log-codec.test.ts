// The change log's binary codec: every kind of entry comes back exactly, a damaged or newer segment is refused, and a capacity tick costs a few bytes a selection.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capacityBodies, capacityEvent, type CapacityPlan } from '../../bench/capacity-world.js';
import { TickBuilder } from '../../bench/capacity-ticks.js';
import { Rng } from '../../src/feed/simulator/rng.js';
import type { MarketsMessage, OddsMessage } from '../../src/feed/messages.js';
import {
  decodeLogSegment,
  encodeLogSegment,
  LOG_CODEC_VERSION,
  LogCodecError,
  LogSegmentWriter,
  putVarint,
  Reader,
} from '../../src/live/log-codec.js';
import type { LogEntry, OddsEntry } from '../../src/live/log-entry.js';

const MS = Date.parse('2026-03-01T12:00:00Z');

function odds(
  position: { ms: number; seq: number },
  eventId: string,
  rows: Array<[number, number, number, 0 | 1]>,
  at = position.ms - 5,
): OddsEntry {
  const n = rows.length;
  return {
    kind: 'odds',
    position,
    eventId,
    sport: 'soccer',
    league: 'england-premier-league',
    at,
    bytes: 160 + 29 * n,
    count: n,
    layout: -1,
    packed: null,
    changes: {
      marketIds: Float64Array.from(rows.map((r) => r[0])),
      selectionIds: Float64Array.from(rows.map((r) => r[1])),
      odds: Float64Array.from(rows.map((r) => r[2])),
      locked: Uint8Array.from(rows.map((r) => r[3])),
    },
  };
}

/** One entry of every kind, with awkward values: non-ASCII text, prices thousandths cannot hold, huge ids, a fractional time. */
function everyKind(): LogEntry[] {
  const json = (kind: 'fixture' | 'status' | 'score' | 'stats' | 'result' | 'settlement' | 'evicted', seq: number) =>
    ({
      kind,
      position: { ms: MS, seq },
      eventId: 'e-ü1',
      sport: 'soccer',
      league: 'england-premier-league',
      at: MS - 60_000,
      json: JSON.stringify({ event_id: 'e-ü1', kind, note: 'Malmö – “quoted”' }),
      bytes: 0,
    }) as LogEntry;
  return [
    json('fixture', 0),
    json('status', 1),
    json('score', 2),
    json('stats', 3),
    {
      kind: 'markets',
      position: { ms: MS + 1, seq: 0 },
      eventId: 'e-ü1',
      sport: 'soccer',
      league: 'england-premier-league',
      at: MS + 1,
      added: [
        {
          marketId: 1,
          key: '1x2',
          name: 'Match result',
          outcomes: [
            {
              selectionId: 11,
              code: 'home',
              label: 'Home',
              odds: 2.05,
              isLocked: false,
              teamSide: 'home',
              openingOdds: 1.95,
              closingOdds: 2.1,
            },
            {
              selectionId: 12,
              code: 'draw',
              label: 'Draw',
              odds: 3.2,
              isLocked: true,
              teamSide: null,
              openingOdds: 3.2,
              closingOdds: null,
            },
          ],
        },
      ],
      withdrawn: [7, 9],
      repriced: Uint8Array.from([1, 0]),
      bytes: 0,
    } as unknown as LogEntry,
    odds({ ms: MS + 1, seq: 1 }, 'e-ü1', [
      [1, 11, 2.1, 0],
      [1, 12, 1 + 1 / 3, 1],
      [2, 21, 1000.5, 0],
      [2, 5, 1.001, 1],
    ]),
    odds({ ms: MS + 2, seq: 0 }, 'big', [[2 ** 60, 0.5, 1.9, 0]], MS + 2.5),
    json('result', 4),
    json('settlement', 5),
    {
      kind: 'outright',
      position: { ms: MS + 900, seq: 0 },
      eventId: 't1',
      sport: 'soccer',
      league: '',
      at: MS - 3_600_000,
      tournament: 'World Cup',
      change: 'market',
      market: {
        marketId: 4,
        market: 'Winner',
        selections: [{ selectionId: 1, selection: 'Brazil', odds: 4.5 }],
        updatedAt: MS,
      },
      resultJson: null,
      bytes: 0,
    } as unknown as LogEntry,
    {
      kind: 'outright',
      position: { ms: MS + 901, seq: 0 },
      eventId: 't1',
      sport: 'soccer',
      league: '',
      at: MS,
      tournament: 'World Cup',
      change: 'result',
      market: null,
      resultJson: '{"market_id":4,"void":false,"winners":[]}',
      bytes: 0,
    } as unknown as LogEntry,
    json('evicted', 6),
  ].map((e, i) => ({ ...e, position: { ms: MS + 1000 + i * 7, seq: i % 3 } }) as LogEntry);
}

/** What a decoded entry must equal: everything but the memory estimate and the book indexes. */
function comparable(e: LogEntry): unknown {
  const { bytes: _bytes, ...rest } = e;
  if (rest.kind !== 'odds') return rest;
  const { layout: _l, packed: _p, ...others } = rest;
  const changes = rest.changes;
  return {
    ...others,
    changes: {
      marketIds: [...changes.marketIds],
      selectionIds: [...changes.selectionIds],
      odds: [...changes.odds],
      locked: [...changes.locked],
    },
  };
}

describe('log codec', () => {
  it('every kind of entry comes back exactly (positions, times, strings, prices, locks)', () => {
    const entries = everyKind();
    const seg = encodeLogSegment(entries);
    assert.ok(seg !== null);
    assert.equal(seg.count, entries.length);
    assert.deepEqual(seg.from, entries[0]?.position);
    assert.deepEqual(seg.to, entries[entries.length - 1]?.position);
    const back = decodeLogSegment(seg.data);
    assert.deepEqual(back.map(comparable), entries.map(comparable));
    for (const e of back) assert.ok(e.bytes > 0, 'decoded entries carry their memory estimate');
  });

  it('random prices and ids round-trip bit for bit (many seeds)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rng = new Rng(seed);
      const rows: Array<[number, number, number, 0 | 1]> = [];
      for (let k = 0; k < 200; k++) {
        const exact = rng.next() < 0.7;
        const price = exact ? Math.round(rng.uniform(1.01, 50) * 100) / 100 : rng.uniform(1.01, 1000);
        rows.push([Math.floor(rng.uniform(0, 5000)), Math.floor(rng.uniform(0, 1e6)), price, rng.next() < 0.1 ? 1 : 0]);
      }
      const entry = odds({ ms: MS + seed, seq: seed }, `ev${seed}`, rows);
      const back = decodeLogSegment(encodeLogSegment([entry])!.data);
      assert.deepEqual(back.map(comparable), [comparable(entry)], `seed ${seed}`);
    }
  });

  it('a writer seals segment after segment, each standing alone', () => {
    const w = new LogSegmentWriter();
    assert.equal(w.seal(), null, 'nothing written: no segment');
    const entries = everyKind();
    for (const e of entries.slice(0, 5)) w.write(e);
    const a = w.seal();
    for (const e of entries.slice(5)) w.write(e);
    const b = w.seal();
    assert.ok(a !== null && b !== null);
    assert.deepEqual(
      [...decodeLogSegment(a.data), ...decodeLogSegment(b.data)].map(comparable),
      entries.map(comparable),
    );
  });

  it('a writer grown by a burst (a bulk load) shrinks back once segments are small again', () => {
    const w = new LogSegmentWriter();
    const rows = Array.from({ length: 60_000 }, (_, k): [number, number, number, 0 | 1] => [
      1 + (k >> 1),
      100 + k,
      1.5,
      0,
    ]);
    w.write(odds({ ms: MS, seq: 0 }, 'big', rows));
    assert.ok(w.capacity > 1024 * 1024, 'the burst grew the buffer');
    assert.ok(w.seal() !== null);
    const small = everyKind();
    for (const e of small) w.write(e);
    const after = w.seal();
    assert.ok(after !== null);
    // Not the burst's megabytes (a buffer under 1 MB is not worth reallocating).
    assert.ok(w.capacity <= 1024 * 1024, `${w.capacity}`);
    // And it still writes whole segments after shrinking.
    for (const e of small) w.write(e);
    assert.deepEqual(decodeLogSegment(w.seal()!.data).map(comparable), small.map(comparable));
  });

  it('a segment of another version, or damaged, is refused with LogCodecError (never misread)', () => {
    const seg = encodeLogSegment(everyKind())!;
    const newer = Buffer.from(seg.data);
    newer[0] = LOG_CODEC_VERSION + 1;
    assert.throws(() => decodeLogSegment(newer), LogCodecError);
    for (const cut of [2, 10, Math.floor(seg.data.length / 2), seg.data.length - 1]) {
      assert.throws(() => decodeLogSegment(seg.data.subarray(0, cut)), LogCodecError, `cut at ${cut}`);
    }
  });

  it('a capacity tick costs at most 9 bytes a selection, a quieter feed (10 a message) at most 12', (t) => {
    const plan: CapacityPlan = { events: 40, live: 40, markets: 1000, now: MS, seed: 7 };
    const live = [...capacityBodies(plan, 40)].flatMap((b) => b.live);
    // Each selection's market, as the event's markets message defines it.
    const marketOf = new Map<string, Map<number, number>>();
    for (let i = 0; i < plan.events; i++) {
      const ev = capacityEvent(plan, i);
      const m = ev.messages.find((x) => x.type === 'markets') as MarketsMessage | undefined;
      const map = new Map<number, number>();
      for (const market of m?.markets ?? []) for (const o of market.outcomes) map.set(o.selection_id, market.market_id);
      marketOf.set((ev.messages[0] as { event_id: string }).event_id, map);
    }
    for (const [perEvent, limit] of [
      [100, 9],
      [10, 12],
    ] as const) {
      const ticks = new TickBuilder(live, perEvent, 3);
      const built: OddsEntry[] = [];
      let selections = 0;
      for (let tick = 0; tick < 10; tick++) {
        const lines = new TextDecoder().decode(ticks.next().body).split('\n');
        for (const [i, line] of lines.entries()) {
          const msg = JSON.parse(line) as OddsMessage;
          const rows = msg.changes.map((c): [number, number, number, 0 | 1] => [
            marketOf.get(msg.event_id)?.get(c.selection_id) ?? 0,
            c.selection_id,
            c.odds ?? 1.5,
            c.is_locked === true ? 1 : 0,
          ]);
          built.push(odds({ ms: MS + tick * 300, seq: i }, msg.event_id, rows));
          selections += rows.length;
        }
      }
      const entries = built.length;
      const w = new LogSegmentWriter();
      const t0 = performance.now();
      for (const e of built) w.write(e);
      const seg = w.seal()!;
      const encodeMs = performance.now() - t0;
      const t1 = performance.now();
      const decoded = decodeLogSegment(seg.data);
      const decodeMs = performance.now() - t1;
      // Warm: the same entries again, as a running service encodes tick after tick.
      let warmEncodeMs = Number.POSITIVE_INFINITY;
      let warmDecodeMs = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 8; round++) {
        const a = performance.now();
        for (const e of built) w.write(e);
        const again = w.seal()!;
        const b = performance.now();
        decodeLogSegment(again.data);
        warmEncodeMs = Math.min(warmEncodeMs, b - a);
        warmDecodeMs = Math.min(warmDecodeMs, performance.now() - b);
      }
      const perSelection = seg.data.length / selections;
      t.diagnostic(
        `${perEvent} changes a message: ${entries} odds entries, ${selections} selections, ${seg.data.length} bytes: ` +
          `${perSelection.toFixed(2)} bytes a selection, ${(seg.data.length / entries).toFixed(0)} bytes an entry; ` +
          `encoded in ${encodeMs.toFixed(1)} ms, decoded in ${decodeMs.toFixed(1)} ms (first run), ` +
          `warm ${((warmEncodeMs * 100_000) / selections).toFixed(1)} ms and ${((warmDecodeMs * 100_000) / selections).toFixed(1)} ms per 100,000 selections`,
      );
      assert.ok(perSelection <= limit, `${perSelection} bytes a selection`);
      assert.equal(decoded.length, entries);
    }
  });
});

describe('varints', () => {
  it('round-trip every size class, at and around each boundary, up to 2^53 - 1', () => {
    const values: number[] = [0, 1, 127, 128, 16_383, 16_384, 2 ** 21, 2 ** 28 - 1, 2 ** 28];
    for (const edge of [2 ** 31, 2 ** 32, 2 ** 35, 2 ** 49, 2 ** 53]) values.push(edge - 1, edge, edge + 1);
    const fit = values.filter((v) => v <= Number.MAX_SAFE_INTEGER);
    const b = new Uint8Array(fit.length * 8);
    let p = 0;
    for (const v of fit) p = putVarint(b, p, v);
    const r = new Reader(b.subarray(0, p));
    assert.deepEqual(
      fit.map(() => r.uvarint()),
      fit,
    );
    assert.equal(r.done, true);
  });
});
