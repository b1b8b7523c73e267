// Disruptions: cancellation, walkover, delay, postponement (resumed or not), retirement, abandonment and interruption.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeedMessage } from '../../../src/feed/messages.js';
import { NO_DISRUPTIONS, type DisruptionRates } from '../../../src/feed/simulator/config.js';
import { playOneGame } from '../../../src/feed/simulator/single-game.js';
import { buildWorld } from '../../../src/feed/simulator/world.js';
import { FeedChecker } from './feed-checker.js';

const PUBLISH = Date.parse('2026-03-07T10:00:00Z');
const HOUR = 3_600_000;
const world = buildWorld(2026);

function only(rates: Partial<DisruptionRates>, sport = 'soccer'): { messages: FeedMessage[]; checker: FeedChecker } {
  const { messages } = playOneGame({
    seed: 5,
    world,
    sport,
    tier: 2,
    publishAt: PUBLISH,
    config: { disruptions: { ...NO_DISRUPTIONS, ...rates } },
  });
  const checker = new FeedChecker();
  checker.apply(messages);
  return { messages, checker };
}

const statuses = (ms: FeedMessage[]): string[] =>
  ms.flatMap((m) => (m.type === 'status' ? [m.status] : m.type === 'result' ? [`result:${m.status}`] : []));

describe('disruptions', () => {
  it('cancels a fixture before kick-off', () => {
    const { messages, checker } = only({ cancelled: 1 });
    assert.deepEqual(checker.errors, []);
    assert.deepEqual(statuses(messages), ['cancelled']);
  });

  it('awards a walkover in an individual sport before it starts', () => {
    const { messages, checker } = only({ walkover: 1 }, 'tennis');
    assert.deepEqual(checker.errors, []);
    const result = messages.find((m) => m.type === 'result');
    assert.ok(
      result?.type === 'result' &&
        result.status === 'walkover' &&
        (result.winner === 'home' || result.winner === 'away'),
    );
  });

  it('delays a kick-off and then plays the game', () => {
    const { messages, checker } = only({ delayed: 1 });
    assert.deepEqual(checker.errors, []);
    assert.deepEqual(statuses(messages), ['delayed', 'live', 'result:ended']);
  });

  it('postpones a game and plays it within 48 hours at an announced new time', () => {
    const { messages, checker } = only({ postponed: 1, postponedResumeShare: 1 });
    assert.deepEqual(checker.errors, []);
    assert.deepEqual(statuses(messages), ['postponed', 'live', 'result:ended']);
    const fixtures = messages.filter((m) => m.type === 'fixture');
    assert.equal(fixtures.length, 2, 'the new kick-off is announced');
    const postponedAt = Date.parse(messages.find((m) => m.type === 'status')!.ts!);
    const liveAt = Date.parse(messages.find((m) => m.type === 'status' && m.status === 'live')!.ts!);
    assert.ok(liveAt - postponedAt < 48 * HOUR);
  });

  it('leaves a postponed game past the 48-hour limit and cancels it later', () => {
    const { messages, checker } = only({ postponed: 1, postponedResumeShare: 0 });
    assert.deepEqual(checker.errors, []);
    assert.deepEqual(statuses(messages), ['postponed', 'cancelled']);
    const [postponed, cancelled] = messages.filter((m) => m.type === 'status').map((m) => Date.parse(m.ts!));
    assert.ok(cancelled! - postponed! > 48 * HOUR);
  });

  it('ends a tennis match by retirement with the other player as winner', () => {
    const { messages, checker } = only({ retired: 1 }, 'tennis');
    assert.deepEqual(checker.errors, []);
    const result = messages.find((m) => m.type === 'result');
    assert.ok(
      result?.type === 'result' && result.status === 'retired' && result.winner !== undefined && result.winner !== null,
    );
    assert.ok(messages.some((m) => m.type === 'stats' && m.final === true));
  });

  it('abandons a game while live, with the score it had', () => {
    const { messages, checker } = only({ abandoned: 1 });
    assert.deepEqual(checker.errors, []);
    assert.deepEqual(statuses(messages), ['live', 'result:abandoned']);
  });

  it('interrupts a game, locks its markets and resumes it', () => {
    const { messages, checker } = only({ interrupted: 1 });
    assert.deepEqual(checker.errors, []);
    assert.deepEqual(statuses(messages), ['live', 'interrupted', 'live', 'result:ended']);
    const i = messages.findIndex((m) => m.type === 'status' && m.status === 'interrupted');
    const between = messages.slice(
      i + 1,
      messages.findIndex((m, j) => j > i && m.type === 'status'),
    );
    assert.ok(!between.some((m) => m.type === 'score'), 'no score while interrupted');
  });
});
