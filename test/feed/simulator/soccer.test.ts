// Soccer specifics: the depth of a top league's book, locks after goals, and the end-of-game lock or withdrawal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeedMessage, MarketsMessage, OddsMessage, ScoreMessage } from '../../../src/feed/messages.js';
import { NO_DISRUPTIONS } from '../../../src/feed/simulator/config.js';
import { BREAK_LOCK_MS } from '../../../src/feed/simulator/game.js';
import { playOneGame } from '../../../src/feed/simulator/single-game.js';
import { buildWorld } from '../../../src/feed/simulator/world.js';
import { FeedChecker } from './feed-checker.js';

const PUBLISH = Date.parse('2026-03-07T10:00:00Z');
const world = buildWorld(2026);
const ts = (m: FeedMessage): number => Date.parse(m.ts!);

const played = new Map<string, FeedMessage[]>();

/** A game with the default pricing (a reprice every 5 simulated s); each played once for the file. */
function game(tier: 1 | 2 | 3, seed: number): FeedMessage[] {
  let messages = played.get(`${tier}/${seed}`);
  if (messages === undefined) {
    messages = playOneGame({
      seed,
      world,
      sport: 'soccer',
      tier,
      publishAt: PUBLISH,
      config: { disruptions: NO_DISRUPTIONS },
    }).messages;
    played.set(`${tier}/${seed}`, messages);
  }
  return messages;
}

/**
 * The same game priced only when its state changes (no periodic reprice): the engine's draws do not
 * depend on pricing, so its scores are the priced game's. Searches for a seed scan these (a tenth of
 * the CPU), then check the game found priced as usual.
 */
function scores(options: { tier?: 1 | 2 | 3; league?: string }, seed: number): FeedMessage[] {
  return playOneGame({
    seed,
    world,
    sport: 'soccer',
    ...options,
    publishAt: PUBLISH,
    config: { disruptions: NO_DISRUPTIONS },
    repriceMs: 24 * 3_600_000,
    tickMs: 0,
  }).messages.filter((m) => m.type !== 'odds' && m.type !== 'markets' && m.type !== 'remove_markets');
}

/** The index of the first goal before the 80th minute, or -1. */
function earlyGoal(messages: readonly FeedMessage[]): number {
  let last = '0-0';
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.type !== 'score') continue;
    const now = `${m.score.home}-${m.score.away}`;
    const minute = Number((m.clock ?? '99:00').split(':')[0]);
    if (now !== last && minute < 80 && m.period !== 'HT') return i;
    last = now;
  }
  return -1;
}

/** A game with a goal before the 80th minute (seeds are tried in order; most games have one). */
function gameWithEarlyGoal(tier: 1 | 2 | 3): { messages: FeedMessage[]; goalAt: number } {
  for (let seed = 1; seed < 30; seed++) {
    if (earlyGoal(scores({ tier }, seed)) < 0) continue;
    const messages = game(tier, seed);
    const goalAt = earlyGoal(messages);
    assert.ok(goalAt >= 0, `seed ${seed}: the priced game has the early goal its scores have`);
    return { messages, goalAt };
  }
  throw new Error('no game with an early goal');
}

/** Indexes of red cards (not at half time, not with a goal at the same instant) among the score messages. */
function redCards(messages: readonly FeedMessage[]): number[] {
  const out: number[] = [];
  let reds = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.type !== 'score' || m.sport_data === undefined || m.sport_data === null) continue;
    const now = Number(m.sport_data.home_red_cards) + Number(m.sport_data.away_red_cards);
    const goalToo = i > 0 && messages.slice(0, i).some((x) => x.type === 'score' && x.ts === m.ts);
    if (now > reds && m.period !== 'HT' && !goalToo) out.push(i);
    reds = now;
  }
  return out;
}

describe('soccer books', () => {
  it('a tier-1 league event carries more than 1,000 markets, each gradeable by key and code', () => {
    const messages = game(1, 3);
    const markets = messages.filter((m): m is MarketsMessage => m.type === 'markets').flatMap((m) => m.markets);
    assert.ok(markets.length >= 1000, `${markets.length} markets`);
    const keys = new Set(markets.map((m) => m.key));
    assert.equal(keys.size, markets.length, 'one market per key');
    for (const k of [
      '1x2',
      '1x2@1h',
      '1x2@2h',
      'asian_handicap:-0.25',
      'asian_handicap@1h:0.75',
      'totals:2.5',
      'totals@2h:1.25',
      'btts',
      'correct_score',
      'ht_ft',
      'odd_even',
      'winning_margin',
      'team_totals_home:1.5',
      'double_chance',
      'draw_no_bet',
    ]) {
      assert.ok(keys.has(k), `has ${k}`);
    }
    assert.ok([...keys].filter((k) => k.startsWith('player_')).length >= 500, 'player props for both squads');
    const cs = markets.find((m) => m.key === 'correct_score')!;
    assert.ok(cs.outcomes.some((o) => o.code === 'other'));
  });

  it('minor leagues carry fewer markets', () => {
    const count = (tier: 1 | 2 | 3): number =>
      game(tier, 3)
        .filter((m): m is MarketsMessage => m.type === 'markets')
        .reduce((s, m) => s + m.markets.length, 0);
    const [t1, t2, t3] = [count(1), count(2), count(3)];
    assert.ok(t1 > t2 && t2 > t3, `${t1} > ${t2} > ${t3}`);
    assert.ok(t3 >= 10);
  });

  it('a goal locks the selections at once and reopens them 30-60 simulated seconds later', () => {
    const { messages, goalAt } = gameWithEarlyGoal(1);
    const goal = messages[goalAt] as ScoreMessage;
    // The lock is sent before the goal's score: a client never sees the new score with old prices open.
    const next = messages
      .slice(0, goalAt)
      .reverse()
      .find((m): m is OddsMessage => m.type === 'odds')!;
    assert.equal(ts(next), ts(goal), 'the lock comes with the goal');
    assert.ok(
      next.changes.length > 100 && next.changes.every((c) => c.is_locked === true && c.odds === undefined),
      'locked, last odds kept',
    );
    const reopen = messages
      .slice(goalAt + 1)
      .find((m): m is OddsMessage => m.type === 'odds' && m.changes.some((c) => c.is_locked === false))!;
    const after = (ts(reopen) - ts(goal)) / 1000;
    assert.ok(after >= 30 && after <= 60, `reopened after ${after} s`);
    assert.ok(
      reopen.changes.some((c) => c.odds !== undefined),
      'new prices come with the reopening',
    );
  });

  it('half time locks the book briefly, then it reopens repriced; nothing is open when the result comes', () => {
    const messages = game(1, 5);
    const checker = new FeedChecker();
    let halfTimeAt: number | null = null;
    let reopenedAt: number | null = null;
    let period = '';
    for (const m of messages) {
      if (m.type === 'score' && m.period === 'HT' && halfTimeAt === null) {
        halfTimeAt = ts(m);
        assert.ok(
          [...checker.selections.values()].every((s) => s.locked),
          'all locked at the half-time whistle',
        );
      }
      checker.one(m);
      if (m.type === 'score') period = m.period ?? period;
      if (m.type === 'odds' && period === 'HT' && reopenedAt === null && m.changes.some((c) => c.is_locked === false)) {
        reopenedAt = ts(m);
        assert.ok(
          m.changes.some((c) => c.odds !== undefined),
          'new prices come with the reopening',
        );
      }
      if (m.type === 'result') {
        const open = [...checker.selections.values()].filter((s) => !s.locked);
        assert.equal(open.length, 0, 'no open selection when the result comes');
      }
    }
    assert.ok(halfTimeAt !== null && reopenedAt !== null, 'reopened during half time');
    assert.equal((reopenedAt - halfTimeAt) / 1000, BREAK_LOCK_MS / 1000);
    assert.deepEqual(checker.errors, []);
  });

  it('a red card locks the book before the score tells it, then it reopens repriced', () => {
    let found = false;
    for (let seed = 1; seed < 40 && !found; seed++) {
      const expected = redCards(scores({ tier: 1 }, seed)).length;
      if (expected === 0) continue;
      const messages = game(1, seed);
      const cards = redCards(messages);
      assert.equal(cards.length, expected, `seed ${seed}: the priced game has the red cards its scores have`);
      for (const i of cards) {
        const m = messages[i]!;
        found = true;
        const lock = messages
          .slice(0, i)
          .reverse()
          .find((x): x is OddsMessage => x.type === 'odds')!;
        assert.equal(ts(lock), ts(m), 'the lock comes with the red card');
        assert.ok(lock.changes.length > 100 && lock.changes.every((c) => c.is_locked === true));
        const reopen = messages
          .slice(i + 1)
          .find((x): x is OddsMessage => x.type === 'odds' && x.changes.some((c) => c.is_locked === false))!;
        const after = (ts(reopen) - ts(m)) / 1000;
        assert.ok(after >= 30 && after <= 61, `reopened after ${after} s`);
      }
    }
    assert.ok(found, 'a game with a red card');
  });

  it('a minor league withdraws its markets near the end', () => {
    const messages = game(3, 5);
    const removal = messages.find((m) => m.type === 'remove_markets' && m.all === true);
    assert.ok(removal !== undefined && removal.type === 'remove_markets' && removal.all === true);
    const after = messages.slice(messages.indexOf(removal));
    assert.ok(!after.some((m) => m.type === 'odds' || m.type === 'markets'));
  });

  it('a cup tie level after 90 minutes goes to extra time and penalties; the shoot-out is not in the score', () => {
    let shootout: FeedMessage | undefined;
    for (let seed = 1; seed < 80 && shootout === undefined; seed++) {
      const tie = scores({ league: 'National Cup' }, seed).find((m) => m.type === 'result');
      if (tie?.type !== 'result' || tie.period_scores?.some((p) => p.period === 'PEN') !== true) continue;
      const { messages } = playOneGame({
        seed,
        world,
        sport: 'soccer',
        league: 'National Cup',
        publishAt: PUBLISH,
        config: { disruptions: NO_DISRUPTIONS },
      });
      const result = messages.find((m) => m.type === 'result');
      assert.deepEqual(result, tie, `seed ${seed}: the priced tie ends as its scores do`);
      const checker = new FeedChecker();
      checker.apply(messages);
      assert.deepEqual(checker.errors, []);
      shootout = result;
    }
    assert.ok(shootout?.type === 'result', 'a shoot-out within 80 cup ties');
    assert.deepEqual(
      shootout.period_scores!.map((p) => p.period),
      ['1H', '2H', 'ET', 'PEN'],
    );
    const [h1, h2, et, pen] = shootout.period_scores!;
    assert.equal(shootout.score.home, h1!.home + h2!.home + et!.home);
    assert.equal(shootout.score.home, shootout.score.away);
    assert.equal(shootout.winner, pen!.home > pen!.away ? 'home' : 'away');
  });
});
