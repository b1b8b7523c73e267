// Positions across nodes: a replica's replay takes its leader's positions or logs nothing; a reload makes the positions before it lost.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChangeLog, type LogEntryInput, type LostSpan } from '../../src/live/change-log.js';
import type { LogEntryKind, OddsEntry } from '../../src/live/log-entry.js';
import { PackedOddsEntry } from '../../src/live/packed-odds-entry.js';
import { formatLogPosition, parseLogPosition, type LogPosition } from '../../src/live/log-position.js';
import { LogReplay, PositionRecorder } from '../../src/live/log-replay.js';

function logAt(clock: { t: number }): ChangeLog {
  return new ChangeLog({ now: () => clock.t, windowMs: 1e12, maxBytes: 1 << 30 });
}

function entry(kind: 'status' | 'score' | 'settlement' | 'evicted', eventId: string): LogEntryInput {
  return { kind, eventId, sport: 'soccer', league: 'l', at: 0, bytes: 100, json: `{"event_id":"${eventId}"}` };
}

const ids = (log: ChangeLog): string[] =>
  log.since(null).map((e) => `${formatLogPosition(e.position)} ${e.kind} ${e.eventId}`);
const p = (text: string): LogPosition => parseLogPosition(text) as LogPosition;

/** A leader's batch: the entries `make` appends, and the positions recorded for them. */
function leaderBatch(log: ChangeLog, recorder: PositionRecorder, make: (log: ChangeLog) => void) {
  recorder.begin();
  make(log);
  return recorder.end();
}

describe('positions a replica takes from its leader', () => {
  it("a replay that makes the leader's entries logs them at the leader's positions, whatever the replica's clock says", () => {
    const leaderClock = { t: 1_000_000 };
    const replicaClock = { t: 5_000_000 }; // far ahead: its own positions would differ
    const leader = logAt(leaderClock);
    const replica = logAt(replicaClock);
    const recorder = new PositionRecorder(leader);
    const replay = new LogReplay(replica);
    const batches = [
      (log: ChangeLog) => {
        log.append(entry('status', 'a'));
        log.append(entry('score', 'a'));
      },
      (log: ChangeLog) => log.append(entry('status', 'b')),
    ];
    for (const make of batches) {
      const positions = leaderBatch(leader, recorder, make);
      leaderClock.t += 3;
      // Something only the leader logs (an eviction) between batches: a gap in positions, nothing more.
      leader.append(entry('evicted', 'x'));
      const size = replica.size;
      replay.begin();
      make(replica);
      assert.equal(replica.size, size, 'nothing is logged before the batch is whole');
      assert.deepEqual(replay.end(positions), { matched: true, entries: positions.kinds.length });
    }
    const shown = ids(leader).filter((l) => !l.includes('evicted'));
    assert.deepEqual(ids(replica), shown);
    // A client of either resumes from any of these ids with the same entries after it.
    const from = replica.since(null)[0]?.position as LogPosition;
    const a = leader.after(from);
    const b = replica.after(from);
    assert.ok(a.ok && b.ok);
    assert.deepEqual(
      b.entries.map((e) => formatLogPosition(e.position)),
      a.entries.filter((e) => e.kind !== 'evicted').map((e) => formatLogPosition(e.position)),
    );
  });

  it('a replay that makes other entries (count or kind) logs none of them, or keeps them at its own positions', () => {
    const leader = logAt({ t: 1_000 });
    const recorder = new PositionRecorder(leader);
    const positions = leaderBatch(leader, recorder, (log) => {
      log.append(entry('status', 'a'));
      log.append(entry('score', 'a'));
    });
    const replica = logAt({ t: 500 });
    const replay = new LogReplay(replica);
    const cases: Array<[string, (log: ChangeLog) => void, RegExp]> = [
      ['fewer', (log) => log.append(entry('status', 'a')), /1 entries where the leader's batch made 2/],
      [
        'another kind',
        (log) => {
          log.append(entry('status', 'a'));
          log.append(entry('settlement', 'a'));
        },
        /entry 1 is 'settlement' where the leader's is 'score'/,
      ],
    ];
    for (const [what, make, reason] of cases) {
      replay.begin();
      make(replica);
      const outcome = replay.end(positions);
      assert.equal(outcome.matched, false, what);
      assert.match(outcome.matched ? '' : outcome.reason, reason, what);
      assert.equal(replica.size, 0, `${what}: nothing logged`);
    }
    replay.begin();
    replica.append(entry('status', 'a'));
    assert.equal(replay.end(positions, 'keep').matched, false);
    assert.deepEqual(ids(replica), ['500-0 status a'], 'kept at its own position');
    // Positions not after the head cannot be taken (the replica is ahead of them).
    const late = logAt({ t: 2_000 });
    late.append(entry('status', 'z'));
    const lateReplay = new LogReplay(late);
    lateReplay.begin();
    late.append(entry('status', 'a'));
    late.append(entry('score', 'a'));
    const outcome = lateReplay.end(positions);
    assert.equal(outcome.matched, false);
    assert.match(outcome.matched ? '' : outcome.reason, /not after this log's head 2000-0/);
  });

  it('a replay with no positions (state only) logs nothing', () => {
    const log = logAt({ t: 1_000 });
    const replay = new LogReplay(log);
    replay.begin();
    log.append(entry('status', 'a'));
    assert.equal(replay.end(null).matched, false);
    assert.equal(log.size, 0);
    assert.equal(log.append(entry('status', 'b'))?.position.ms, 1_000, 'appends go to the log again');
  });
});

describe('a replica that reloads (discontinue)', () => {
  it('no position up to the reload resumes; the next entry ends a lost span reaching back to the start, told before the entry', () => {
    const clock = { t: 1_000 };
    const log = logAt(clock);
    for (const id of ['a', 'b', 'c']) {
      log.append(entry('status', id));
      clock.t++;
    }
    const before = log.head;
    log.discontinue();
    assert.deepEqual(log.after(before), { ok: false, reason: 'lost' });
    assert.deepEqual(log.after(p('1000-0')), { ok: false, reason: 'lost' });
    assert.deepEqual(
      log.after(p('99999-0')),
      { ok: false, reason: 'unknown' },
      'a position not reached yet stays unknown',
    );
    const told: string[] = [];
    log.onLost((span: LostSpan) =>
      told.push(`lost ${formatLogPosition(span.after)}..${formatLogPosition(span.before)}`),
    );
    log.subscribe((e) => told.push(`entry ${formatLogPosition(e.position)}`));
    clock.t = 2_000;
    log.append(entry('status', 'd'));
    assert.deepEqual(told, ['lost 0-0..2000-0', 'entry 2000-0']);
    for (const old of ['1000-0', '1002-0', '1999-5']) {
      assert.deepEqual(log.after(p(old)), { ok: false, reason: 'lost' }, old);
    }
    // From the first entry after the reload on, resumes are exact again.
    clock.t = 2_001;
    log.append(entry('status', 'e'));
    const r = log.after(p('2000-0'));
    assert.ok(r.ok);
    assert.deepEqual(
      r.entries.map((e) => e.eventId),
      ['e'],
    );
    assert.equal(log.size, 2, 'the window before the reload was dropped');
  });

  it('the head can be moved forward without an entry (a new leader continuing an old one whose clock ran ahead)', () => {
    const log = logAt({ t: 1_000 });
    log.advanceHead(p('5000-7'));
    log.advanceHead(p('4000-0')); // never back
    assert.equal(formatLogPosition(log.append(entry('status', 'a'))?.position as LogPosition), '5000-8');
  });
});

describe('the leader records what each batch made', () => {
  it('records positions and kinds only between begin and end', () => {
    const clock = { t: 7_000 };
    const log = logAt(clock);
    const recorder = new PositionRecorder(log);
    log.append(entry('status', 'before'));
    const batch = leaderBatch(log, recorder, (l) => {
      l.append(entry('status', 'a'));
      clock.t = 7_005;
      l.append(entry('score', 'a'));
    });
    log.append(entry('status', 'after'));
    const kinds: LogEntryKind[] = ['status', 'score'];
    assert.deepEqual(batch, { ms: [7_000, 7_005], seq: [1, 0], kinds });
  });
});

describe('packed odds entries in a replica replay', () => {
  it("keep their changes when they take the leader's positions (an entry is taken over, not copied field by field)", () => {
    const leaderClock = { t: 1_000_000 };
    const leader = logAt(leaderClock);
    const replica = logAt({ t: 9_000_000 });
    const recorder = new PositionRecorder(leader);
    const replay = new LogReplay(replica);
    // market 7, selection 70: price 2.5 (2500 thousandths, shifted with lock bit 0), as applyPrices packs it.
    const packedOdds = (): LogEntryInput =>
      new PackedOddsEntry('a', 'soccer', 'l', 0, 1, 1, Uint8Array.of(14, 140, 1, 0x88, 0x27), 189);
    const positions = leaderBatch(leader, recorder, (log) => log.append(packedOdds()));
    replay.begin();
    replica.append(packedOdds());
    assert.deepEqual(replay.end(positions), { matched: true, entries: 1 });
    const got = replica.since(null)[0] as OddsEntry;
    assert.equal(got.kind, 'odds');
    assert.deepEqual([...got.changes.marketIds], [7]);
    assert.deepEqual([...got.changes.selectionIds], [70]);
    assert.deepEqual([...got.changes.odds], [2.5]);
    assert.deepEqual(got.packed, Uint8Array.of(14, 140, 1, 0x88, 0x27));
  });
});
