// Prematch books move before kick-off (drift.ts): prices change over world hours, seeded, the same after a restart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeedMessage, MarketDef } from '../../../src/feed/messages.js';
import { NO_DISRUPTIONS, resolveConfig } from '../../../src/feed/simulator/config.js';
import { DRIFT, driftAt, nextDriftAt, tiltMarkets } from '../../../src/feed/simulator/drift.js';
import { createEngine } from '../../../src/feed/simulator/engines/registry.js';
import type { FairMarket } from '../../../src/feed/simulator/pricing/fair.js';
import { Rng } from '../../../src/feed/simulator/rng.js';
import { SimGame } from '../../../src/feed/simulator/game.js';
import { playOneGame } from '../../../src/feed/simulator/single-game.js';
import { epochDayOf, eventNumber } from '../../../src/feed/simulator/ids.js';
import { buildWorld } from '../../../src/feed/simulator/world.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-03-09T15:00:00Z');
const PUBLISH = START - 60 * HOUR;
const world = buildWorld(2026);
const config = resolveConfig({ disruptions: NO_DISRUPTIONS });

function game(sport: string, seed = 7): SimGame {
  const league = world.leagues.find((l) => l.sport === sport)!;
  return new SimGame(
    {
      eventNum: eventNumber(league.index, epochDayOf(START), 0),
      league,
      home: league.teams[0]!,
      away: league.teams[1]!,
      startTime: START,
      publishAt: PUBLISH,
    },
    { seed, config, repriceMs: config.repriceMs },
  );
}

/** Plays the game's prematch from `from` (opening it there) up to `until`; the messages, in order. */
function prematch(g: SimGame, from: number, until: number): FeedMessage[] {
  if (from > PUBLISH) g.playSilentlyTo(from);
  const out = g.open(from);
  for (let at = g.nextAt(); at <= until; at = g.nextAt()) out.push(...g.run(at));
  return out;
}

/** The price of every selection after the messages, by selection id. */
function prices(ms: FeedMessage[]): Map<number, number> {
  const p = new Map<number, number>();
  for (const m of ms) {
    if (m.type === 'markets')
      for (const mk of m.markets as MarketDef[]) for (const o of mk.outcomes) p.set(o.selection_id, o.odds);
    if (m.type === 'odds') for (const c of m.changes) if (c.odds !== undefined) p.set(c.selection_id, c.odds);
  }
  return p;
}

describe('prematch drift', () => {
  it('moves main prices over 9 world hours in every sport, with odds messages stamped at world instants', () => {
    const sports = [...new Set(world.leagues.map((l) => l.sport))];
    for (const sport of sports) {
      const ms = prematch(game(sport), PUBLISH, PUBLISH + 9 * HOUR);
      const first = ms.find((m) => m.type === 'markets');
      assert.ok(first?.type === 'markets', sport);
      const main = first.markets[0]!;
      const later = prices(ms);
      const moved = main.outcomes.some((o) => later.get(o.selection_id) !== o.odds);
      assert.ok(moved, `${sport}: ${main.key} did not move in 9 world hours`);
      const odds = ms.filter((m) => m.type === 'odds');
      assert.ok(
        odds.length >= 1 && odds.length <= 3,
        `${sport}: ${odds.length} moves in 9 hours (at most one per 4 hours)`,
      );
      for (const m of odds) assert.ok(Date.parse(m.ts!) > PUBLISH && Date.parse(m.ts!) <= PUBLISH + 9 * HOUR);
    }
  });

  it('moves more often in the last hours before kick-off', () => {
    const ms = prematch(game('soccer'), START - 4 * HOUR, START - 1);
    const odds = ms.filter((m) => m.type === 'odds');
    assert.ok(odds.length >= 5, `${odds.length} moves in the last 4 hours`);
  });

  it('a restart with the same seed prices the event the same at the same world instant', () => {
    const at = PUBLISH + 30 * HOUR;
    const uninterrupted = prices(prematch(game('ice_hockey'), PUBLISH, at));
    const restarted = prices(prematch(game('ice_hockey'), at, at));
    assert.ok(restarted.size > 0);
    for (const [id, odds] of restarted) assert.equal(uninterrupted.get(id), odds, `selection ${id}`);
    const other = prices(prematch(game('ice_hockey', 8), at, at));
    assert.notDeepEqual([...other.values()], [...restarted.values()], 'another seed drifts otherwise');
  });

  it('the drift is a pure function of the seed, event and world time, bounded', () => {
    const t = START - 2 * HOUR;
    assert.equal(driftAt(1, 42, START, t), driftAt(1, 42, START, t));
    assert.notEqual(driftAt(1, 42, START, t), driftAt(1, 43, START, t));
    for (let e = 0; e < 200; e++) assert.ok(Math.abs(driftAt(3, e, START, START)) <= DRIFT.maxAbs);
    assert.equal(nextDriftAt(START, START), null);
    assert.equal(nextDriftAt(START, START - DRIFT.nearStepMs - 1), START - DRIFT.nearStepMs);
  });

  it('closes in on the engine by kick-off: the first in-play price follows on from the closing one', () => {
    // It used to jump at kick-off, 0-0, by the whole drift (basketball 1.42/2.91 -> 1.54/2.5).
    let checked = 0;
    for (const sport of ['basketball', 'baseball', 'tennis', 'soccer', 'ice_hockey']) {
      for (const seed of [1, 2, 3, 4]) {
        const { messages } = playOneGame({
          seed,
          world,
          sport,
          tier: 1,
          publishAt: Date.parse('2026-03-07T10:00:00Z'),
          config: { disruptions: NO_DISRUPTIONS },
        });
        let main: number[] | null = null;
        const price = new Map<number, number>();
        let closing: number[] | null = null;
        let opening: number[] | null = null;
        let evented = false;
        for (const m of messages) {
          if (m.type === 'markets' && main === null) {
            const mk = m.markets.find((x) => x.key === 'moneyline' || x.key === '1x2');
            if (mk !== undefined) main = mk.outcomes.map((o) => o.selection_id);
          }
          if (m.type === 'markets')
            for (const mk of m.markets) for (const o of mk.outcomes) price.set(o.selection_id, o.odds);
          if (m.type === 'odds') for (const c of m.changes) if (c.odds !== undefined) price.set(c.selection_id, c.odds);
          if (main === null) continue;
          if (m.type === 'status' && m.status === 'live' && closing === null)
            closing = main.map((id) => price.get(id)!);
          else if (closing !== null && opening === null && m.type === 'odds') {
            // A lock first means an event (a goal, a power play) that rightly moves the price.
            if (m.changes.some((c) => main!.includes(c.selection_id) && c.is_locked === true)) evented = true;
            if (m.changes.some((c) => main!.includes(c.selection_id) && c.odds !== undefined))
              opening = main.map((id) => price.get(id)!);
          }
        }
        assert.ok(closing !== null && opening !== null, `${sport} seed ${seed}: priced before and in play`);
        if (evented) continue;
        checked++;
        // Implied chances, each outcome: within 2 points (what 5 minutes of closing in and the first play move).
        closing.forEach((c, i) => {
          const gap = Math.abs(1 / c - 1 / opening![i]!);
          assert.ok(
            gap <= 0.02,
            `${sport} seed ${seed}: ${closing!.join('/')} at kick-off, then ${opening!.join('/')}`,
          );
        });
      }
    }
    assert.ok(checked >= 15, `only ${checked} of 20 games moved first without an event`);
  });

  it("player props move with their side's drift, at the same instants as the winner (news jumps too)", () => {
    // They stood still from opening to kick-off while the winner drifted (a free bet against the book).
    const HOME_PLAYERS = new Set(world.leagues.find((l) => l.sport === 'soccer')!.teams[0]!.players.map((p) => p.id));
    let jumps = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const g = game('soccer', seed);
      assert.equal(g.plan.league.tier, 1, 'props are a tier-1 book');
      const from = START - 40 * HOUR;
      const ms = prematch(g, from, START - 1);
      // Which market each selection is in, from the opening book.
      const keyOf = new Map<number, { key: string; code: string }>();
      const opening = ms.find((m) => m.type === 'markets');
      assert.ok(opening?.type === 'markets');
      for (const mk of opening.markets)
        for (const o of mk.outcomes) keyOf.set(o.selection_id, { key: mk.key, code: o.code });
      const goalsOver = [...keyOf].filter(([, k]) => k.key.startsWith('player_goals_') && k.code === 'over');
      assert.ok(goalsOver.length > 4, `seed ${seed}: ${goalsOver.length} goalscorer Overs in the book`);
      const isHome = (key: string): boolean => HOME_PLAYERS.has(key.slice('player_goals_'.length).split(':')[0]!);
      const price = prices([opening]);
      let prevDrift = driftAt(seed, g.plan.eventNum, START, from);
      for (const m of ms) {
        if (m.type !== 'odds') continue;
        const at = Date.parse(m.ts!);
        const moved = new Set(m.changes.filter((c) => c.odds !== undefined).map((c) => keyOf.get(c.selection_id)!.key));
        const propsMoved = [...moved].some((k) => k.startsWith('player_'));
        const teamMoved = [...moved].some((k) => !k.startsWith('player_'));
        // The same state prices both: props never move on their own (rounded odds may hide a tiny move of either).
        if (propsMoved) assert.ok(teamMoved, `seed ${seed} at ${m.ts}: props moved alone`);
        const before = new Map(price);
        for (const c of m.changes) if (c.odds !== undefined) price.set(c.selection_id, c.odds);
        const drift = driftAt(seed, g.plan.eventNum, START, at);
        const step = drift - prevDrift;
        prevDrift = drift;
        if (Math.abs(step) < 0.03) continue; // too small a move to show through rounded odds everywhere
        // Far from kick-off a step this size is team news (the random steps there have sd 0.04).
        if (at < START - DRIFT.nearLeadMs && Math.abs(step) >= DRIFT.newsMin) jumps++;
        // The home side stronger: its players' goals Overs shorten, the away players' lengthen.
        for (const [id, k] of goalsOver) {
          const b = before.get(id)!;
          const a = price.get(id)!;
          const shorter = step > 0 === isHome(k.key);
          assert.ok(
            shorter ? a <= b : a >= b,
            `seed ${seed} at ${m.ts}: drift ${step.toFixed(3)}, ${k.key} Over ${b} -> ${a}`,
          );
        }
        assert.ok(propsMoved, `seed ${seed} at ${m.ts}: drift moved ${step.toFixed(3)}, props did not`);
      }
    }
    assert.ok(jumps >= 1, 'a team-news jump among the seeds');
  });

  describe('every family moves with the drift, consistently with the winner', () => {
    /** The full fair book of a tier-1 game of the sport, before kick-off. */
    function book(sport: string): FairMarket[] {
      const league = world.leagues.find((l) => l.sport === sport && l.tier === 1)!;
      const engine = createEngine(sport, {
        rng: Rng.derive(5, 'drift-families', sport),
        league,
        home: league.teams[2]!,
        away: league.teams[3]!,
        names: { home: 'H', away: 'A' },
      });
      return engine.markets('full');
    }
    const SCORE = /^(\d+)-(\d+)$/;
    /** P(home wins) among decided outcomes, as the market implies it. */
    function homeShare(m: FairMarket): number {
      let home = 0;
      let away = 0;
      for (const o of m.outcomes) {
        const s = SCORE.exec(o.code);
        const ft = o.code.includes('/') ? o.code.split('/')[1] : null;
        const isHome = s ? Number(s[1]) > Number(s[2]) : ft !== null ? ft === 'home' : o.side === 'home';
        const isAway = s ? Number(s[1]) < Number(s[2]) : ft !== null ? ft === 'away' : o.side === 'away';
        if (isHome) home += o.p;
        if (isAway) away += o.p;
      }
      return home / (home + away);
    }
    const cases: Array<[string, string, string]> = [
      ['tennis', 'set_betting', 'moneyline'],
      ['volleyball', 'set_betting', 'moneyline'],
      ['darts', 'set_betting', 'moneyline'],
      ['soccer', 'correct_score', '1x2'],
      ['soccer', 'correct_score@1h', '1x2@1h'],
      ['soccer', 'ht_ft', '1x2'],
      ['ice_hockey', 'correct_score', '1x2'],
      ['snooker', 'correct_score', 'moneyline'],
      ['cs2', 'correct_score', 'moneyline'],
    ];
    for (const [sport, key, winner] of cases)
      it(`${sport} ${key} moves as ${winner} does`, () => {
        const before = book(sport);
        const after = tiltMarkets(before, 0.15);
        const m0 = before.find((m) => m.key === key)!;
        const m1 = after.find((m) => m.key === key)!;
        const w0 = before.find((m) => m.key === winner)!;
        const w1 = after.find((m) => m.key === winner)!;
        assert.ok(m0 && w0, `${sport}: ${key} and ${winner} in the book`);
        const sum = (m: FairMarket): number => m.outcomes.reduce((s, o) => s + o.p, 0);
        assert.ok(Math.abs(sum(m1) - sum(m0)) < 1e-9, 'the market keeps its total');
        // It moves toward the home side, as far as the winner market does (the same home share).
        assert.ok(homeShare(m1) > homeShare(m0) + 0.01, `${key}: ${homeShare(m0)} -> ${homeShare(m1)}`);
        assert.ok(
          Math.abs(homeShare(m1) - homeShare(w1)) < Math.abs(homeShare(m0) - homeShare(w0)) + 0.005,
          `${key} home share ${homeShare(m1).toFixed(3)} against ${winner} ${homeShare(w1).toFixed(3)} (before ${homeShare(m0).toFixed(3)} / ${homeShare(w0).toFixed(3)})`,
        );
      });

    it('team totals move with their side: the home Over up, the away Over down', () => {
      const before = book('soccer');
      const after = tiltMarkets(before, 0.15);
      const over = (ms: FairMarket[], key: string): number =>
        ms.find((m) => m.key === key)!.outcomes.find((o) => o.code === 'over')!.p;
      assert.ok(over(after, 'team_totals_home:1.5') > over(before, 'team_totals_home:1.5') + 0.01);
      assert.ok(over(after, 'team_totals_away:1.5') < over(before, 'team_totals_away:1.5') - 0.01);
      // Strength-free families stay as they were.
      const same = (key: string): void =>
        assert.deepEqual(
          after.find((m) => m.key === key),
          before.find((m) => m.key === key),
        );
      same('totals:2.5');
    });

    it("player props move with their side: a stronger home side's scorers up, its tacklers down", () => {
      for (const [sport, stat, dir] of [
        ['soccer', 'goals', 1],
        ['soccer', 'tackles', -1],
        ['basketball', 'points', 1],
        ['baseball', 'hits', 1],
        ['american_football', 'touchdowns', 1],
      ] as const) {
        const before = book(sport);
        const after = tiltMarkets(before, 0.15);
        const props = before.filter((m) => m.player?.stat === stat && m.decided !== true);
        assert.ok(props.some((m) => m.player!.side === 'home') && props.some((m) => m.player!.side === 'away'), sport);
        for (const m0 of props) {
          const m1 = after.find((m) => m.key === m0.key)!;
          const over = (m: FairMarket): number => m.outcomes.find((o) => o.code === 'over')!.p;
          const want = dir * (m0.player!.side === 'home' ? 1 : -1);
          assert.ok((over(m1) - over(m0)) * want > 0, `${sport} ${m0.key}: ${over(m0)} -> ${over(m1)}`);
        }
      }
    });
  });
});
