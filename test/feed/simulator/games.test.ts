// Every sport plays a whole game at simulated speed: prematch → live → ended, valid messages and prices at every step.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SPORT_KEYS } from '../../../src/domain/sports.js';
import type { FeedMessage, ScoreMessage } from '../../../src/feed/messages.js';
import { NO_DISRUPTIONS } from '../../../src/feed/simulator/config.js';
import { playOneGame } from '../../../src/feed/simulator/single-game.js';
import { buildWorld } from '../../../src/feed/simulator/world.js';
import { FeedChecker } from './feed-checker.js';

const PUBLISH = Date.parse('2026-03-07T10:00:00Z');
const MARGIN = 0.05;
const TOLERANCE = 0.02;
const world = buildWorld(2026);

function play(
  sport: string,
  seed: number,
): { messages: FeedMessage[]; checker: FeedChecker; worstMargin: { dev: number; key: string } } {
  const { messages } = playOneGame({
    seed,
    world,
    sport,
    tier: 1,
    publishAt: PUBLISH,
    config: { disruptions: NO_DISRUPTIONS },
  });
  const checker = new FeedChecker();
  let worst = { dev: 0, key: '' };
  for (const m of messages) {
    checker.one(m);
    if (m.type !== 'odds' && m.type !== 'markets') continue;
    for (const s of checker.openMarketSums(m.event_id)) {
      const parts = s.key.startsWith('double_chance') ? 2 : 1;
      const dev = Math.abs(s.sum / parts - (1 + MARGIN));
      if (dev > worst.dev) worst = { dev, key: s.key };
    }
  }
  return { messages, checker, worstMargin: worst };
}

describe('a whole game of every sport', () => {
  for (const sport of SPORT_KEYS) {
    it(`${sport}: prematch → live → ended with a result, a valid feed and fair books`, () => {
      const { messages, checker, worstMargin } = play(sport, 11);
      assert.deepEqual(checker.errors, []);
      const types = messages.map((m) => m.type);
      assert.equal(types[0], 'fixture');
      assert.equal(types[1], 'markets');
      const statuses = messages.flatMap((m) => (m.type === 'status' ? [m.status] : []));
      assert.deepEqual(statuses, ['live']);
      const result = messages.find((m) => m.type === 'result');
      assert.ok(result !== undefined && result.type === 'result' && result.status === 'ended');
      const last = messages[messages.length - 1]!;
      assert.ok(last.type === 'stats' && last.final === true, 'final player stats close the game');
      assert.ok(types.indexOf('result') < types.lastIndexOf('stats'));
      const scores = messages.filter((m): m is ScoreMessage => m.type === 'score');
      assert.ok(scores.length >= 5, `${scores.length} score updates`);
      const lastScore = scores[scores.length - 1]!;
      assert.deepEqual(result.score, lastScore.score);
      assert.ok(types.includes('odds'), 'prices move during the game');
      assert.ok(
        worstMargin.dev <= TOLERANCE,
        `market ${worstMargin.key} is ${worstMargin.dev.toFixed(4)} off 1 + margin`,
      );
      // Every price of the game, as published, is at least 1.01 (the checker also enforces it per message).
      for (const s of checker.selections.values()) assert.ok(s.odds >= 1.01);
    });
  }

  it('plays differently with another seed', () => {
    const a = play('tennis', 11).messages.find((m) => m.type === 'result');
    const b = play('tennis', 12).messages.find((m) => m.type === 'result');
    const c = play('tennis', 11).messages.find((m) => m.type === 'result');
    assert.deepEqual(a, c);
    assert.notDeepEqual(a, b);
  });
});
