// A restarted world closes what an earlier run left open: real results for games that finished, else abandoned/cancelled.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeedMessage, ResultMessage } from '../../../src/feed/messages.js';
import { Simulator } from '../../../src/feed/simulator/simulator.js';

const START = Date.parse('2026-03-07T10:00:00Z');
const HOUR = 3_600_000;
/** Half a day of fixtures ahead: the games these tests follow, not the two weeks of tier-1 books ahead. */
const HORIZON = { 1: 12, 2: 12, 3: 12 };
const CONFIG = { sports: ['tennis', 'darts'], horizonHours: HORIZON };

/**
 * The world's messages minute by minute up to `until`, or up to the minute that brought one that
 * `enough` accepts (what the test looks for is the first such message: a world run further only
 * adds messages after it).
 */
function runUntil(sim: Simulator, until: number, enough: (m: FeedMessage) => boolean): FeedMessage[] {
  const out: FeedMessage[] = [];
  for (let t = START; t <= until; t += 60_000) {
    const messages = sim.advance(t);
    out.push(...messages);
    if (messages.some(enough)) break;
  }
  return out;
}

describe('Simulator restart', () => {
  it('publishes the real result of a game that finished while the consumer was away', () => {
    const first = new Simulator({ seed: 42, speed: 60, startAt: START, config: CONFIG });
    const history = runUntil(first, START + 6 * HOUR, (m) => m.type === 'result' && m.status === 'ended');
    const results = history.filter((m): m is ResultMessage => m.type === 'result' && m.status === 'ended');
    assert.ok(results.length > 0, 'some game ended within six hours');
    const target = results[0] as ResultMessage;
    const endedAt = Date.parse(target.ended_at ?? '');

    // The consumer saw the game live, then was down until after it ended.
    const restartAt = endedAt + 10 * 60_000;
    const second = new Simulator({
      seed: 42,
      speed: 60,
      startAt: restartAt,
      config: CONFIG,
      openEvents: new Map([[target.event_id, 'live']]),
    });
    const closing = second.advance(restartAt).filter((m) => 'event_id' in m && m.event_id === target.event_id);
    assert.deepEqual(
      closing.map((m) => m.type),
      ['result', 'stats'],
      'the result, then the final stats (due 3 minutes after it)',
    );
    const r = closing[0] as ResultMessage;
    assert.equal(r.type, 'result');
    assert.equal(r.status, 'ended');
    assert.deepEqual(r.score, target.score);
    assert.equal(r.winner ?? null, target.winner ?? null);
  });

  it('abandons a live event and cancels a prematch one that this world does not play', () => {
    const sim = new Simulator({
      seed: 42,
      speed: 60,
      startAt: START,
      config: CONFIG,
      openEvents: new Map([
        ['sim-999', 'live'],
        ['sim-998', 'prematch'],
        ['sim-997', 'postponed'],
      ]),
    });
    const byId = new Map(
      sim
        .advance(START)
        .filter((m) => m.type === 'status')
        .map((m) => [(m as { event_id: string }).event_id, (m as { status: string }).status]),
    );
    assert.equal(byId.get('sim-999'), 'abandoned');
    assert.equal(byId.get('sim-998'), 'cancelled');
    assert.equal(byId.get('sim-997'), 'cancelled');
  });

  it('leaves alone open events it still plays (a game in progress continues)', () => {
    const first = new Simulator({ seed: 42, speed: 60, startAt: START, config: CONFIG });
    const history = runUntil(first, START + 3 * HOUR, (m) => m.type === 'status' && m.status === 'live');
    const live = history.find((m) => m.type === 'status' && m.status === 'live') as { event_id: string } | undefined;
    assert.ok(live);
    const liveAt = Date.parse(
      (history.find((m) => m.type === 'status' && m.event_id === live.event_id) as { ts: string }).ts,
    );
    const second = new Simulator({
      seed: 42,
      speed: 60,
      startAt: liveAt + 60_000,
      config: CONFIG,
      openEvents: new Map([[live.event_id, 'live']]),
    });
    const messages = second.advance(liveAt + 60_000).filter((m) => 'event_id' in m && m.event_id === live.event_id);
    assert.ok(!messages.some((m) => m.type === 'status' && (m.status === 'abandoned' || m.status === 'cancelled')));
  });
});

describe('Simulator restart: a game in progress', () => {
  // Lines added in play, and markets decided while the world was down, are not in the book a
  // restarted world offers: a consumer that held the game withdraws what it holds, then takes the
  // book as it stands (same ids), so nothing stale stays open.
  it('tells a consumer that held it to withdraw its book before offering the current one; a new consumer is not', () => {
    const config = { sports: ['basketball'], outrights: false, tiers: [1 as const], horizonHours: HORIZON };
    const first = new Simulator({ seed: 42, speed: 60, startAt: START, config });
    const history = runUntil(first, START + 30 * HOUR, (m) => m.type === 'status' && m.status === 'live');
    const live = history.find((m) => m.type === 'status' && m.status === 'live') as { event_id: string; ts: string };
    assert.ok(live, 'a game went live');
    const at = Date.parse(live.ts) + 60 * 60_000;
    const reopen = (held: boolean): string[] =>
      new Simulator({
        seed: 42,
        speed: 60,
        startAt: at,
        config,
        openEvents: held ? new Map([[live.event_id, 'live']]) : new Map(),
      })
        .advance(at)
        .filter((m) => 'event_id' in m && m.event_id === live.event_id)
        .map((m) => (m.type === 'remove_markets' ? `remove_markets:${m.all === true ? 'all' : 'ids'}` : m.type));
    const held = reopen(true);
    assert.deepEqual(held.slice(0, 3), ['fixture', 'remove_markets:all', 'markets'], held.join(', '));
    assert.ok(!reopen(false).includes('remove_markets:all'));
  });
});

describe('Simulator restart: games that ended in play', () => {
  it('kicks off a game held as not started before its retirement result (the lifecycle needs it live)', () => {
    const config = { sports: ['tennis'], outrights: false, disruptions: { retired: 1 }, horizonHours: HORIZON };
    const first = new Simulator({ seed: 42, speed: 60, startAt: START, config });
    const retired = runUntil(first, START + 8 * HOUR, (m) => m.type === 'result' && m.status === 'retired').find(
      (m): m is ResultMessage => m.type === 'result' && m.status === 'retired',
    );
    assert.ok(retired);
    const restartAt = Date.parse(retired.ended_at ?? '') + 30 * 60_000;
    const second = new Simulator({
      seed: 42,
      speed: 60,
      startAt: restartAt,
      config,
      openEvents: new Map([[retired.event_id, 'prematch']]),
    });
    const closing = second.advance(restartAt).filter((m) => 'event_id' in m && m.event_id === retired.event_id);
    assert.deepEqual(
      closing.map((m) =>
        m.type === 'status' ? `status:${m.status}` : m.type === 'result' ? `result:${m.status}` : m.type,
      ),
      ['status:live', 'result:retired', 'stats'],
    );
    const r = closing[1] as ResultMessage;
    assert.equal((closing[2] as { final?: boolean }).final, true);
    assert.deepEqual([r.score, r.ended_at, r.winner], [retired.score, retired.ended_at, retired.winner]);
  });
});
