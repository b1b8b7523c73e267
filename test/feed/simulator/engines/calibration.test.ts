// Engine calibration: many seeded games per sport, each main scoring figure inside the band of its real reference figure.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AMERICAN_FOOTBALL,
  BASEBALL,
  BASKETBALL,
  ESPORTS,
  ICE_HOCKEY,
  SOCCER,
  TENNIS,
  type ReferenceFigure,
} from '../../../../src/feed/simulator/engines/reference-figures.js';
import { sampleGames, type SampledGame } from '../../../../src/feed/simulator/engines/sample-games.js';
import { buildWorld } from '../../../../src/feed/simulator/world.js';

const world = buildWorld(2026);

function within(name: string, simulated: number, ref: ReferenceFigure): void {
  const [lo, hi] = ref.band;
  assert.ok(
    simulated >= lo && simulated <= hi,
    `${name}: simulated ${simulated.toFixed(3)}, real ${String(ref.value)} (band ${String(lo)}-${String(hi)}; ${ref.source})`,
  );
}

const mean = (games: SampledGame[], f: (g: SampledGame) => number): number =>
  games.reduce((s, g) => s + f(g), 0) / games.length;
const share = (games: SampledGame[], f: (g: SampledGame) => boolean): number => mean(games, (g) => (f(g) ? 1 : 0));
const margin = (g: SampledGame): number => g.result.score.home - g.result.score.away;
const total = (g: SampledGame): number => g.result.score.home + g.result.score.away;
const hasPeriod = (g: SampledGame, p: (name: string) => boolean): boolean =>
  g.result.periodScores.some((s) => p(s.period));

describe('engine calibration against real league figures', () => {
  it('baseball: runs, run-differential spread, extra innings (MLB 2023-24)', () => {
    const games = sampleGames({ world, sport: 'baseball', games: 3000, seed: 11 });
    within('runs per team', mean(games, total) / 2, BASEBALL.runsPerTeam);
    within(
      'one-run games',
      share(games, (g) => Math.abs(margin(g)) === 1),
      BASEBALL.oneRunShare,
    );
    within(
      '9+ run games',
      share(games, (g) => Math.abs(margin(g)) >= 9),
      BASEBALL.nineRunsOrMoreShare,
    );
    within(
      'extra innings',
      share(games, (g) => g.result.periodScores.length > 9),
      BASEBALL.extraInningsShare,
    );
  });

  it('basketball: points and overtime (NBA 2023-24)', () => {
    const games = sampleGames({ world, sport: 'basketball', games: 2000, seed: 12, tier: 1 });
    within('points per team', mean(games, total) / 2, BASKETBALL.pointsPerTeam);
    within(
      'overtime',
      share(games, (g) => hasPeriod(g, (p) => p.startsWith('OT'))),
      BASKETBALL.overtimeShare,
    );
  });

  it('ice hockey: goals, overtime and shoot-outs (NHL 2023-24)', () => {
    const games = sampleGames({ world, sport: 'ice_hockey', games: 2000, seed: 13, tier: 1 });
    // The shoot-out's deciding goal is not a goal in the league's scoring figures.
    const goals = (g: SampledGame): number =>
      g.result.periodScores.filter((p) => p.period !== 'SO').reduce((s, p) => s + p.home + p.away, 0);
    within('goals per game', mean(games, goals), ICE_HOCKEY.goalsPerGame);
    within(
      'overtime or shoot-out',
      share(games, (g) => hasPeriod(g, (p) => p === 'OT' || p === 'SO')),
      ICE_HOCKEY.overtimeShare,
    );
    within(
      'shoot-out',
      share(games, (g) => hasPeriod(g, (p) => p === 'SO')),
      ICE_HOCKEY.shootoutShare,
    );
  });

  it('american football: points, home wins, margins, overtime (NFL 2012-2022 file)', () => {
    const games = sampleGames({ world, sport: 'american_football', games: 2000, seed: 14, tier: 1 });
    within('points per game', mean(games, total), AMERICAN_FOOTBALL.pointsPerGame);
    within(
      'home wins',
      share(games, (g) => margin(g) > 0),
      AMERICAN_FOOTBALL.homeWinShare,
    );
    within(
      'overtime',
      share(games, (g) => hasPeriod(g, (p) => p.startsWith('OT'))),
      AMERICAN_FOOTBALL.overtimeShare,
    );
  });

  // The margin spread comes from two sources: how far apart the teams are (the book's expected margin,
  // ~6.3 points rms in the file's closing spreads) and the game's own noise (~13 points around it).
  it('american football: margin spread (NFL 2012-2022 file)', () => {
    const games = sampleGames({ world, sport: 'american_football', games: 2000, seed: 14, tier: 1 });
    within('margin sd', Math.sqrt(mean(games, (g) => margin(g) ** 2)), AMERICAN_FOOTBALL.marginSd);
  });

  // The book prices from the engine's own model: a favourite priced to win 70% must win about 70%
  // (the rating effect on play and the pricing formula agree), or prematch favourites are mispriced.
  it('american football: opening moneyline favourites win as often as priced', () => {
    const games = sampleGames({ world, sport: 'american_football', games: 2000, seed: 14, tier: 1, withOpening: true });
    let priced = 0;
    let won = 0;
    for (const g of games) {
      const ml = g.opening!.find((m) => m.key === 'moneyline')!;
      const [home, away] = [ml.outcomes[0]!.p, ml.outcomes[1]!.p];
      const favHome = home >= away;
      priced += favHome ? home : away;
      if (favHome ? margin(g) > 0 : margin(g) < 0) won++;
    }
    const p = priced / games.length;
    const w = won / games.length;
    assert.ok(Math.abs(p - w) < 0.03, `favourites priced to win ${p.toFixed(3)}, won ${w.toFixed(3)}`);
    // Real closing spreads put favourites' win share near 66% (NFL file); the spread of strengths must show.
    assert.ok(w > 0.6, `favourites won only ${w.toFixed(3)}`);
  });

  it('american football: share of games decided by 1-3 points (NFL 2012-2022 file)', () => {
    const games = sampleGames({ world, sport: 'american_football', games: 2000, seed: 14, tier: 1 });
    const close = share(games, (g) => margin(g) !== 0 && Math.abs(margin(g)) <= 3);
    within('1-3 point games', close, AMERICAN_FOOTBALL.withinThreeShare);
  });

  it('soccer: goals, home/draw/away, 0-0 and corners (Premier League and Bundesliga 2023-24)', () => {
    const games = sampleGames({ world, sport: 'soccer', games: 1500, seed: 15, tier: 1, leaguesOnly: true });
    within('goals per game', mean(games, total), SOCCER.goalsPerGame);
    within(
      'home wins',
      share(games, (g) => margin(g) > 0),
      SOCCER.homeWinShare,
    );
    within(
      'draws',
      share(games, (g) => margin(g) === 0),
      SOCCER.drawShare,
    );
    within(
      'away wins',
      share(games, (g) => margin(g) < 0),
      SOCCER.awayWinShare,
    );
    within(
      '0-0',
      share(games, (g) => total(g) === 0),
      SOCCER.goallessShare,
    );
    const corners = (g: SampledGame): number =>
      Number(g.last.sportData.home_corners ?? 0) + Number(g.last.sportData.away_corners ?? 0);
    within('corners per game', mean(games, corners), SOCCER.cornersPerGame);
  });

  // Map-level strength: with near-even maps a best-of-3 goes the distance half the time; real series
  // between teams of one league go to a third map about a third of the time.
  for (const sport of ['cs2', 'valorant', 'dota2', 'lol'])
    it(`${sport}: best-of-3 series to a third map (HLTV / Liquipedia)`, () => {
      const games = sampleGames({ world, sport, games: 1200, seed: 16 }).filter(
        (g) => Math.max(g.result.score.home, g.result.score.away) === 2,
      );
      assert.ok(games.length >= 300, `${sport}: ${games.length} best-of-3 series`);
      within(
        `${sport} deciders`,
        share(games, (g) => Math.min(g.result.score.home, g.result.score.away) === 1),
        ESPORTS.bo3DeciderShare,
      );
    });

  it('tennis: best-of-3 matches won in straight sets (ATP/WTA)', () => {
    const games = sampleGames({ world, sport: 'tennis', games: 1500, seed: 17 }).filter(
      (g) => Math.max(g.result.score.home, g.result.score.away) === 2,
    );
    assert.ok(games.length >= 800, `${games.length} best-of-3 matches`);
    within(
      'straight sets',
      share(games, (g) => Math.min(g.result.score.home, g.result.score.away) === 0),
      TENNIS.bo3StraightSetsShare,
    );
  });
});
