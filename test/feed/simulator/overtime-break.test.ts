// The break before overtime at a level score: markets price the overtime still to play, not a game that ended level.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { playerCounters } from '../../../src/feed/messages.js';
import { createEngine } from '../../../src/feed/simulator/engines/registry.js';
import type { MatchEngine } from '../../../src/feed/simulator/engines/types.js';
import type { FairMarket } from '../../../src/feed/simulator/pricing/fair.js';
import { Rng } from '../../../src/feed/simulator/rng.js';
import { buildWorld } from '../../../src/feed/simulator/world.js';

const world = buildWorld(2026);
/** A price this close to 0 or 1 is at the bounds: overtime can still move every market checked here. */
const BOUND = 0.005;

/**
 * Seeded games of `sport` in `league`, each stepped until `stop` holds (then kept) or it ends; the
 * first `want` kept, out of at most `maxGames`.
 */
function gamesUntil(
  sport: string,
  league: (typeof world.leagues)[number],
  rngOf: (g: number) => Rng,
  want: number,
  maxGames: number,
  stop: (e: MatchEngine) => boolean,
): MatchEngine[] {
  const found: MatchEngine[] = [];
  for (let g = 0; g < maxGames && found.length < want; g++) {
    const e = createEngine(sport, {
      rng: rngOf(g),
      league,
      home: league.teams[0]!,
      away: league.teams[1]!,
      names: { home: 'H', away: 'A' },
    });
    e.begin();
    while (!e.finished()) {
      e.step();
      if (stop(e)) {
        found.push(e);
        break;
      }
    }
  }
  return found;
}

/** Seeded games of `sport` stepped to the break after regulation at a level score; the first `want` found. */
function levelBreaks(sport: string, want: number, maxGames: number): MatchEngine[] {
  const league = world.leagues.find((l) => l.sport === sport && l.tier === 1)!;
  const found = gamesUntil(
    sport,
    league,
    (g) => Rng.derive(7, 'ot-break', sport, g),
    want,
    maxGames,
    (e) => {
      const s = e.snapshot();
      const regulationOver = e.inBreak() && s.periodScores.length === 4;
      return regulationOver && s.score.home === s.score.away && !e.finished();
    },
  );
  assert.ok(found.length >= 1, `${sport}: no level game in ${maxGames} seeds`);
  return found;
}

/** A prop player's count so far, from the engine's box score. */
function propCount(e: MatchEngine, m: FairMarket): number {
  const id = m.key.slice(`player_${m.player!.stat}_`.length).split(':')[0];
  const line = e.stats().find((s) => String(s.player_id) === id);
  return line ? (playerCounters(line)[m.player!.stat] ?? 0) : 0;
}

/** The Over's probability of a totals-like market (outcome 0 is Over). */
const over = (m: FairMarket): number => m.outcomes[0]!.p;

function checkBreak(e: MatchEngine, sport: string): void {
  const ms = e.markets('full');
  const score = e.snapshot().score.home + e.snapshot().score.away;
  const where = `${sport} at ${e.snapshot().score.home}-${e.snapshot().score.away}`;
  // Full-game markets (period ones carry `@period`) and player props: overtime can still change all of them.
  const live = ms.filter((m) => !m.key.includes('@'));
  // An Over already won stands whatever overtime brings.
  const decided = live.filter((m) => m.decided === true && !(m.outcomes[0]!.code === 'over' && m.outcomes[0]!.p === 1));
  assert.deepEqual(
    decided.map((m) => m.key),
    [],
    `${where}: decided before overtime`,
  );
  const moneyline = live.find((m) => m.key.startsWith('moneyline') || m.key.startsWith('winner'))!;
  assert.ok(moneyline, `${where}: a moneyline is offered`);
  for (const o of moneyline.outcomes)
    assert.ok(Math.abs(o.p - 0.5) < 0.12, `${where}: ${o.label} at ${o.p.toFixed(3)}, near even for equal sides`);
  // A total line a single overtime score reaches (within 6 points above the score now).
  const reachable = live.filter((m) => m.key.startsWith('totals:') && Number(m.key.split(':').pop()) - score < 6);
  for (const m of reachable.filter((m) => Number(m.key.split(':').pop()) > score))
    assert.ok(over(m) > BOUND, `${where}: ${m.key} Over at ${over(m).toFixed(4)}`);
  // Props a basket, rebound or assist (or a few plays' yards) short of their line: overtime can take them over.
  const open = live.filter((m) => m.player && m.outcomes[0]!.p < 1);
  assert.ok(open.length > 0, `${where}: props still open`);
  const gap = (m: FairMarket): number => Number(m.key.split(':').pop()) - propCount(e, m);
  const close = open.filter((m) => gap(m) <= (m.player!.stat.endsWith('yards') ? 10 : 1.5));
  for (const m of close)
    assert.ok(over(m) > BOUND, `${where}: ${m.key} ${gap(m)} short, Over at ${over(m).toFixed(4)}`);
}

/** A seeded knockout soccer game stepped to the break before extra time at a level score. */
function extraTimeBreak(): MatchEngine {
  const league = world.leagues.find((l) => l.sport === 'soccer' && l.plan.format?.knockout === true)!;
  const [e] = gamesUntil(
    'soccer',
    league,
    (g) => Rng.derive(7, 'et-break', g),
    1,
    200,
    (g) => g.inBreak() && g.snapshot().period === 'ET',
  );
  if (e === undefined) throw new Error('no knockout game went to extra time in 200 seeds');
  return e;
}

/** Seeded American football games stepped to the last 40 s of regulation at a level score. */
function lateLevel(want: number): MatchEngine[] {
  const league = world.leagues.find((l) => l.sport === 'american_football' && l.tier === 1)!;
  const found = gamesUntil(
    'american_football',
    league,
    (g) => Rng.derive(7, 'late-level', g),
    want,
    300,
    (e) => {
      const s = e.snapshot();
      const [mm, ss] = (s.clock ?? '99:99').split(':').map(Number) as [number, number];
      return s.period === 'Q4' && !e.inBreak() && mm * 60 + ss <= 40 && s.score.home === s.score.away;
    },
  );
  assert.ok(found.length >= 1, 'no level game late in regulation in 300 seeds');
  return found;
}

describe('markets in the break before overtime', () => {
  // Level with seconds to go, overtime is all but sure: a score in it must not be priced at the bounds.
  it('american_football: late in regulation at a level score, the overtime likely to come is priced', () => {
    for (const e of lateLevel(3)) {
      const ms = e.markets('full');
      const s = e.snapshot();
      const now = s.score.home + s.score.away;
      const where = `${s.clock} ${s.score.home}-${s.score.away}`;
      // A touchdown in overtime (~0.9 x 0.83 x 0.57 of these games) takes every line up to 6.5 above.
      const reachable = ms.filter((m) => m.key.startsWith('totals:') && Number(m.key.split(':')[1]) - now < 7);
      for (const m of reachable.filter((m) => Number(m.key.split(':')[1]) > now))
        assert.ok(over(m) > 0.2, `${where}: ${m.key} Over at ${over(m).toFixed(4)}`);
      // An anytime touchdown for a player with none yet: his share of the overtime's touchdowns.
      const tds = ms.filter((p) => p.player?.stat === 'touchdowns' && propCount(e, p) === 0);
      assert.ok(tds.length > 0, `${where}: touchdown props open`);
      for (const p of tds) assert.ok(over(p) > 0.02, `${where}: ${p.key} Over at ${over(p).toFixed(4)}`);
    }
  });

  // Props grade on the final stats, which count extra time: the players on the pitch play 30 minutes more.
  it('soccer: player props price the extra time still to play', () => {
    const e = extraTimeBreak();
    const props = e.markets('full').filter((m) => m.player && m.outcomes[0]!.p < 1);
    const gap = (m: FairMarket): number => Number(m.key.split(':').pop()) - propCount(e, m);
    // Passes: every player still on the pitch makes some in 30 minutes (a few are off, subbed).
    const close = props.filter((m) => m.player!.stat === 'passes' && gap(m) <= 1.5);
    assert.ok(close.length >= 5, `${close.length} passes props within 1.5 of their line`);
    const open = close.filter((m) => over(m) > BOUND);
    assert.ok(open.length / close.length > 0.5, `${open.length} of ${close.length} close passes props open`);
  });

  for (const sport of ['basketball', 'american_football']) {
    it(`${sport}: overtime still to play is priced`, () => {
      for (const e of levelBreaks(sport, 3, 300)) checkBreak(e, sport);
    });
  }
});
