// The whole world through the Simulator: deterministic from the seed, horizons filled, a valid feed across all sports.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { SPORT_KEYS } from '../../../src/domain/sports.js';
import type { FeedMessage, FixtureMessage } from '../../../src/feed/messages.js';
import type { SimConfigInput } from '../../../src/feed/simulator/config.js';
import { Simulator } from '../../../src/feed/simulator/simulator.js';
import { FeedChecker } from './feed-checker.js';

const START = Date.parse('2026-03-07T10:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function run(seed: number, until: number, step: number, config?: SimConfigInput): FeedMessage[] {
  const sim = new Simulator({ seed, speed: 60, startAt: START, ...(config ? { config } : {}) });
  const out: FeedMessage[] = [];
  for (let t = START; ; t = Math.min(until, t + step)) {
    for (const m of sim.advance(t)) out.push(m);
    if (t === until) break;
  }
  return out;
}

const digest = (ms: FeedMessage[]): string => createHash('sha256').update(JSON.stringify(ms)).digest('hex');
/** Four sports, a day of fixtures ahead (not two weeks of tier-1 books): the determinism cases build it five times. */
const SOME = { sports: ['tennis', 'cs2', 'darts', 'ice_hockey'], horizonHours: { 1: 24, 2: 24, 3: 24 } };

describe('Simulator', () => {
  it('emits identical messages for the same seed, whatever the step of the caller', () => {
    const a = run(42, START + 2 * HOUR, 1_000, SOME);
    const b = run(42, START + 2 * HOUR, 60_000, SOME);
    const c = run(42, START + 2 * HOUR, 7_777, SOME);
    assert.ok(a.length > 500);
    assert.equal(digest(a), digest(b));
    assert.equal(digest(a), digest(c));
  });

  it('emits a different world for a different seed', () => {
    assert.notEqual(digest(run(42, START + HOUR, 60_000, SOME)), digest(run(43, START + HOUR, 60_000, SOME)));
  });

  it('publishes every sport on the first call, top leagues two weeks ahead and minor ones a day or two', () => {
    const sim = new Simulator({ seed: 42, speed: 60, startAt: START });
    const first = sim.advance(START);
    const fixtures = first.filter((m): m is FixtureMessage => m.type === 'fixture');
    assert.deepEqual([...new Set(fixtures.map((f) => f.sport))].sort(), [...SPORT_KEYS].sort());
    const ahead = (tier: number): number =>
      Math.max(...fixtures.filter((f) => f.league.tier === tier).map((f) => Date.parse(f.start_time) - START));
    assert.ok(ahead(1) >= 13 * DAY && ahead(1) <= 15 * DAY, `tier 1 ${ahead(1) / DAY} days`);
    assert.ok(ahead(3) >= 12 * HOUR && ahead(3) <= 2.5 * DAY, `tier 3 ${ahead(3) / DAY} days`);
    assert.ok(first.every((m) => m.ts === new Date(START).toISOString()));
    // Games already under way when the world starts are published live.
    assert.ok(first.some((m) => m.type === 'status' && m.status === 'live'));
  });

  it('keeps the horizon filled as time passes', () => {
    const sim = new Simulator({ seed: 42, speed: 60, startAt: START, config: { sports: ['mma', 'darts'] } });
    const first = sim.advance(START).filter((m): m is FixtureMessage => m.type === 'fixture');
    const later = sim.advance(START + DAY + HOUR).filter((m): m is FixtureMessage => m.type === 'fixture');
    const maxFirst = Math.max(...first.map((f) => Date.parse(f.start_time)));
    assert.ok(
      later.some((f) => Date.parse(f.start_time) > maxFirst),
      'new fixtures beyond the first horizon',
    );
    const firstIds = new Set(first.map((f) => f.event_id));
    assert.ok(later.every((f) => !firstIds.has(f.event_id) || f.ts !== undefined));
  });

  it('produces a valid feed across all sports for hours: lifecycle, ids, scores, prices', () => {
    // A day of fixtures, full books from 12 hours ahead: every stage of a book (published at main
    // depth, deepened, played, settled) within the 3 hours, without the 1,250 tier-1 books of the
    // default two weeks ahead (most of the CPU).
    const messages = run(7, START + 3 * HOUR, 5_000, {
      horizonHours: { 1: 24, 2: 24, 3: 24 },
      fullMarketsLeadMs: 12 * HOUR,
    });
    const checker = new FeedChecker();
    checker.apply(messages);
    assert.deepEqual(checker.errors, []);
    const ended = [...checker.events.values()].filter((e) => e.status === 'ended');
    assert.ok(ended.length >= 10, `${ended.length} games ended`);
    assert.ok(new Set(ended.map((e) => e.sport)).size >= 5);
    for (const id of [...checker.markets.keys(), ...checker.selections.keys()])
      assert.ok(Number.isSafeInteger(id) && id > 0);
    // An ended event is never published again.
    const endedAt = new Map<string, number>();
    messages.forEach((m, i) => {
      if (m.type === 'result') endedAt.set(m.event_id, i);
    });
    messages.forEach((m, i) => {
      if (m.type === 'fixture' || m.type === 'markets' || m.type === 'odds' || m.type === 'score') {
        const end = endedAt.get(m.event_id);
        assert.ok(end === undefined || i < end, `${m.type} after the result of ${m.event_id}`);
      }
    });
  });

  it('never leaves a live game quiet longer than keepAliveWallMs of wall time: its score is sent again', () => {
    for (const speed of [1, 60]) {
      // Short horizons: the same day's games play, without the two weeks of fixtures published ahead.
      const sim = new Simulator({
        seed: 42,
        speed,
        startAt: START,
        config: { sports: ['soccer'], outrights: false, horizonHours: { 1: 3, 2: 3, 3: 3 } },
      });
      const liveSince = new Map<string, number>();
      let longest = 0;
      let repeats = 0;
      for (let t = START; t <= START + 2 * HOUR; t += 60_000) {
        for (const m of sim.advance(t)) {
          if (!('event_id' in m) || m.ts === undefined) continue;
          const at = Date.parse(m.ts);
          // Since the last message about the game while it is live (undefined: not live).
          const since = liveSince.get(m.event_id);
          if (since !== undefined) longest = Math.max(longest, at - since);
          if (m.type === 'status' && m.status !== 'live') liveSince.delete(m.event_id);
          else if (m.type === 'result') liveSince.delete(m.event_id);
          else if (since !== undefined || (m.type === 'status' && m.status === 'live')) liveSince.set(m.event_id, at);
          if (m.type === 'score' && since !== undefined && at - since === 10_000 * speed) repeats++;
        }
      }
      assert.ok(repeats > 0, `quiet games sent their score again at speed ${speed}`);
      assert.ok(longest <= 10_000 * speed, `at speed ${speed} a live game was quiet for ${longest / 1000} simulated s`);
    }
  });
});
