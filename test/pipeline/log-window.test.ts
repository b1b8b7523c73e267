// The stored replay window's keeper: a segment per flush (a failed flush's written with the next), facts it covers counted, and a restore that proves only what the store accounts for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChangeLog, segmentMemory, type LogEntryInput } from '../../src/live/change-log.js';
import { decodeLogSegment } from '../../src/live/log-codec.js';
import { formatLogPosition, parseLogPosition, type LogPosition } from '../../src/live/log-position.js';
import { LogWindowKeeper } from '../../src/pipeline/log-window.js';
import type { LogSegment, LogWindowWrite, Store, StoredLogWindow } from '../../src/store/store.js';

const T = 1_772_366_400_000;
const silent = { warn: () => undefined, error: () => undefined };

function entry(kind: 'status' | 'score' | 'result' | 'settlement', eventId: string): LogEntryInput {
  return {
    kind,
    eventId,
    sport: 'soccer',
    league: 'l',
    at: T,
    bytes: 100,
    json: `{"event_id":"${eventId}","k":"${kind}"}`,
  };
}

function parts(clock: { t: number }, maxBytes = 1 << 30) {
  const log = new ChangeLog({ now: () => clock.t, windowMs: 3_600_000, maxBytes });
  const keeper = new LogWindowKeeper({ log, now: () => clock.t, windowMs: 3_600_000, maxBytes, logger: silent });
  return { log, keeper };
}

/** A store that holds only a log window (what the keeper reads and writes). */
/** A store whose window is `state` (each segment loaded with its bytes). */
function windowStore(state: Omit<StoredLogWindow, 'segments'> & { segments: LogSegment[] }): Store {
  const segments = state.segments.map((seg) => ({ ...seg, size: seg.data.byteLength }));
  return { loadLogWindow: async () => ({ ...state, segments }) } as unknown as Store;
}

const EMPTY: StoredLogWindow = {
  origin: null,
  facts: 0,
  covered: 0,
  through: null,
  segments: [],
  complete: true,
  run: null,
};
const p = (text: string): LogPosition => parseLogPosition(text) as LogPosition;
const kindsOf = (w: LogWindowWrite): string[] =>
  w.segments.flatMap((s) => decodeLogSegment(s.data).map((e) => `${formatLogPosition(e.position)} ${e.kind}`));

describe('the stored replay window', () => {
  it('each flush takes the entries since the last one; a failed flush is written with the next; facts are counted as covered', async () => {
    const clock = { t: T };
    const { log, keeper } = parts(clock);
    await keeper.restore(windowStore({ ...EMPTY, facts: 3, covered: 3 }));
    assert.equal(keeper.take(), undefined, 'nothing new: nothing to write');
    log.append(entry('status', 'a'));
    log.append(entry('result', 'a'));
    const first = keeper.take();
    assert.ok(first !== undefined);
    assert.deepEqual(kindsOf(first), [`${T}-0 status`, `${T}-1 result`]);
    assert.equal(first.covered, 4, 'the result entry is covered: one more fact than the store had');
    keeper.failed();
    clock.t += 10;
    log.append(entry('settlement', 'a'));
    const second = keeper.take();
    assert.ok(second !== undefined);
    assert.equal(second.segments.length, 2, "the failed flush's segment goes with the next");
    assert.deepEqual(kindsOf(second), [`${T}-0 status`, `${T}-1 result`, `${T + 10}-0 settlement`]);
    assert.equal(second.covered, 5);
    keeper.stored(second);
    assert.equal(keeper.take(), undefined);
    assert.deepEqual(keeper.storedThrough, { ms: T + 10, seq: 0 });
  });

  it('a restored window resumes exactly up to its last stored position; later ids are lost, older than it expired, before it reset', async () => {
    const clock = { t: T };
    const before = parts(clock);
    await before.keeper.restore(windowStore(EMPTY));
    const segments: LogWindowWrite['segments'] = [];
    for (let i = 0; i < 5; i++) {
      clock.t += 1000;
      before.log.append(entry('score', `e${i}`));
      const share = before.keeper.take(); // a flush after each: one segment each
      assert.ok(share !== undefined);
      before.keeper.stored(share);
      segments.push(...share.segments);
    }
    assert.equal(segments.length, 5);
    clock.t += 1000;
    before.log.append(entry('score', 'unstored')); // handed out, then the process dies
    const unstored = before.log.head;

    clock.t += 60_000;
    // The memory budget keeps the newest three segments (what each costs the window: its bytes and a header).
    const budget = segments.slice(-3).reduce((n, s) => n + segmentMemory(s), 0);
    const after = parts(clock, budget);
    const restored = await after.keeper.restore(
      windowStore({
        origin: p(`${T + 1000}-0`),
        facts: 0,
        covered: 0,
        through: segments[4]!.to,
        segments,
        complete: false,
        run: null,
      }),
    );
    assert.deepEqual(restored, { entries: 3, proven: true, reason: null });
    const at = (id: string) => after.log.after(p(id));
    assert.deepEqual(
      (at(`${T + 3000}-0`) as { entries: Array<{ eventId: string }> }).entries.map((e) => e.eventId),
      ['e3', 'e4'],
    );
    assert.deepEqual(at(`${T + 5000}-0`), { ok: true, entries: [] });
    assert.deepEqual(at(formatLogPosition(unstored)), { ok: false, reason: 'lost' });
    assert.deepEqual(at(`${T + 1000}-0`), { ok: false, reason: 'expired' });
    assert.deepEqual(at(`${T}-0`), { ok: false, reason: 'reset' });
    assert.deepEqual(at(`${clock.t + 3_600_000}-0`), { ok: false, reason: 'unknown' });
    // The next entry continues after the stored head, and the unstored one stays lost.
    clock.t += 1;
    const next = after.log.append(entry('status', 'x'));
    assert.ok(next !== null && next.position.ms === clock.t);
    assert.deepEqual(at(formatLogPosition(unstored)), { ok: false, reason: 'lost' });
    assert.deepEqual(
      (at(`${T + 5000}-0`) as { entries: Array<{ eventId: string }> }).entries.map((e) => e.eventId),
      ['x'],
    );
  });

  it('a restart keeping part of the window in memory reads only that part with its bytes; a resume reads the rest back', async () => {
    const clock = { t: T };
    const before = parts(clock);
    await before.keeper.restore(windowStore(EMPTY));
    const rows: LogSegment[] = [];
    const seen: string[] = [];
    before.log.subscribe((e) => seen.push(formatLogPosition(e.position)));
    for (let i = 0; i < 8; i++) {
      clock.t += 1000;
      before.log.append(entry('score', `e${i}`));
      before.log.append(entry('status', `e${i}`));
      const share = before.keeper.take()!;
      before.keeper.stored(share);
      rows.push(...share.segments);
    }
    // A store that honours the data budget, and reads segments back.
    let asked = Number.NaN;
    const store = {
      loadLogWindow: async (_fromMs: number, _maxBytes: number, dataBytes: number) => {
        asked = dataBytes;
        let bytes = 0;
        const segments = rows
          .slice()
          .reverse()
          .map((seg) => {
            const withData = bytes < dataBytes;
            bytes += seg.data.byteLength;
            return { ...seg, size: seg.data.byteLength, data: withData ? seg.data : new Uint8Array(0) };
          })
          .reverse();
        return { ...EMPTY, origin: rows[0]!.from, through: rows[7]!.to, segments, complete: true };
      },
    } as unknown as Store;
    const memoryBytes = rows.slice(-2).reduce((n, seg) => n + segmentMemory(seg), 0);
    const log = new ChangeLog({ now: () => clock.t, windowMs: 3_600_000, maxBytes: 1 << 30, memoryBytes });
    const keeper = new LogWindowKeeper({
      log,
      now: () => clock.t,
      windowMs: 3_600_000,
      maxBytes: 1 << 30,
      logger: silent,
      memoryBytes,
      readStored: async (from, to) =>
        rows.filter(
          (seg) =>
            formatLogPosition(seg.to) >= formatLogPosition(from) && formatLogPosition(seg.to) <= formatLogPosition(to),
        ),
    });
    const restored = await keeper.restore(store);
    assert.equal(asked, memoryBytes, 'only the memory budget is read with its bytes');
    assert.deepEqual(restored, { entries: 16, proven: true, reason: null });
    assert.equal(log.storedOnlyCount, 6);
    assert.ok(log.sizeBytes <= memoryBytes, `${log.sizeBytes}`);
    const prepared = await log.prepareReplay(p(seen[0]!));
    const found = prepared.answer();
    assert.ok(found.ok);
    assert.deepEqual(
      [...found.batches].flat().map((e) => formatLogPosition(e.position)),
      seen.slice(1),
    );
  });

  it('a store holding more facts than its segments cover proves nothing: every older id is lost', async () => {
    const clock = { t: T };
    const before = parts(clock);
    await before.keeper.restore(windowStore(EMPTY));
    before.log.append(entry('score', 'a'));
    const share = before.keeper.take()!;
    clock.t += 5000;
    const after = parts(clock);
    const restored = await after.keeper.restore(
      windowStore({
        origin: share.segments[0]!.from,
        facts: 1,
        covered: 0,
        through: share.segments[0]!.to,
        segments: share.segments,
        complete: true,
        run: null,
      }),
    );
    assert.equal(restored.proven, false);
    assert.deepEqual(after.log.after(share.segments[0]!.to), { ok: false, reason: 'lost' });
    assert.deepEqual(after.log.after(share.segments[0]!.from), { ok: false, reason: 'lost' });
    after.log.append(entry('status', 'b'));
    assert.deepEqual(after.log.after(share.segments[0]!.to), { ok: false, reason: 'lost' });
    assert.equal(after.log.after(after.log.head).ok, true, 'positions after the restart resume');
  });

  it('while the store fails, unstored segments are bounded; the next write deletes everything before the oldest kept', async () => {
    const clock = { t: T };
    const { log, keeper } = parts(clock, 200);
    await keeper.restore(windowStore(EMPTY));
    for (let i = 0; i < 10; i++) {
      clock.t += 1000;
      log.append(entry('score', `e${i}-${'x'.repeat(60)}`));
      assert.ok(keeper.take() !== undefined);
      keeper.failed();
    }
    const share = keeper.take() ?? keeper.take();
    assert.ok(share !== undefined);
    assert.ok(share.segments.length < 10, `${share.segments.length} segments kept`);
    assert.deepEqual(share.pruneBefore, share.segments[0]!.from);
  });
});

describe("the stored replay window, scaled out (the leader's run, an API node's install)", () => {
  /** A leader's log and keeper, leading in `epoch` after `before` entries from before its term. */
  function leader(clock: { t: number }, epoch: number, before: number) {
    const { log, keeper } = parts(clock);
    for (let i = 0; i < before; i++) log.append(entry('score', `old${i}`));
    assert.equal(keeper.take(), undefined, 'not leading: nothing stored');
    keeper.beginRun(epoch);
    return { log, keeper };
  }

  it("a term's first write deletes older segments and stores only the term's entries; each names the epoch, start and head", () => {
    const clock = { t: T };
    const { log, keeper } = leader(clock, 3, 2);
    const start = log.head;
    const first = keeper.take();
    assert.ok(first !== undefined, 'the reset is written even before the first entry');
    assert.deepEqual(first.segments, []);
    assert.deepEqual(first.run, { epoch: 3, from: start, through: start, reset: true });
    keeper.failed();
    clock.t += 10;
    log.append(entry('status', 'a'));
    log.append(entry('result', 'a'));
    const second = keeper.take();
    assert.ok(second !== undefined);
    assert.deepEqual(kindsOf(second), [`${T + 10}-0 status`, `${T + 10}-1 result`], 'none from before the term');
    assert.deepEqual(second.run, { epoch: 3, from: start, through: log.head, reset: true }, 'reset until one commits');
    keeper.stored(second);
    clock.t += 10;
    log.append(entry('score', 'a'));
    const third = keeper.take();
    assert.equal(third?.run?.reset, false);
    keeper.stored(third!);
    keeper.endRun();
    log.append(entry('score', 'b'));
    assert.equal(keeper.take(), undefined, 'deposed: nothing more');
  });

  it("an API node's log installed from the run, cut at the watermark's head, resumes exactly and continues with the leader's next entries", () => {
    const clock = { t: T };
    const { log, keeper } = leader(clock, 1, 3);
    const seen: Array<{ id: string; eventId: string }> = [];
    log.subscribe((e) => seen.push({ id: formatLogPosition(e.position), eventId: e.eventId }));
    const segments: LogWindowWrite['segments'] = [];
    for (let i = 0; i < 12; i++) {
      clock.t += 100;
      log.append(entry('score', `e${i}`));
      log.append(entry('status', `e${i}`));
      if (i % 3 === 2) {
        const share = keeper.take()!;
        keeper.stored(share);
        segments.push(...share.segments);
      }
    }
    assert.equal(segments.length, 4);
    // The watermark's head is inside the last segment: the node replays the rest from the stream.
    const head = p(seen[20]!.id);
    assert.equal(keeper.take(), undefined, 'nothing new since the last write');
    for (const complete of [true, false]) {
      const node = new ChangeLog({ now: () => clock.t, windowMs: 3_600_000, maxBytes: 1 << 30 });
      const installed = node.installWindow({
        origin: p(`${T}-0`),
        segments: segments.map((s) => ({ ...s, data: Buffer.from(s.data) })),
        from: complete ? p(`${T}-2`) : null,
        through: head,
      });
      assert.equal(installed, 21);
      assert.equal(node.headId, seen[20]!.id);
      for (let i = 0; i <= 20; i++) {
        const got = node.after(p(seen[i]!.id));
        assert.ok(got.ok, `${seen[i]!.id}: ${JSON.stringify(got)}`);
        assert.deepEqual(
          got.entries.map((e) => formatLogPosition(e.position)),
          seen.slice(i + 1, 21).map((e) => e.id),
        );
      }
      // The term's start resumes when every segment of the run was read; older ids never do.
      assert.deepEqual(node.after(p(`${T}-2`)).ok, complete);
      assert.deepEqual(node.after(p(`${T}-1`)), { ok: false, reason: 'expired' });
      assert.deepEqual(node.after(p(`${T - 1}-0`)), { ok: false, reason: 'reset' });
      // The leader's next entries, at its positions, continue the log; ids ahead of it are unknown.
      const next = p(seen[21]!.id);
      assert.ok(node.accept({ ...entry('status', 'e10'), position: next } as never));
      const after20 = node.after(head);
      assert.ok(after20.ok);
      assert.deepEqual(
        after20.entries.map((e) => formatLogPosition(e.position)),
        [seen[21]!.id],
      );
      assert.deepEqual(node.after(p(`${clock.t + 60_000}-0`)), { ok: false, reason: 'unknown' });
    }
  });
});
