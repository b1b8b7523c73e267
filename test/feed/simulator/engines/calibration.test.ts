// Engine calibration: seeded games per sport, scoring figures inside real bands, in-play prices as sure as the results bear out.
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
import {
  calibrationSlope,
  inplayProbes,
  reliability,
  summary,
  type Probe,
  type ProbeGroup,
} from '../../../../src/feed/simulator/engines/inplay-calibration.js';
import { sampleGames, type SampledGame } from '../../../../src/feed/simulator/engines/sample-games.js';
import { buildWorld } from '../../../../src/feed/simulator/world.js';
import { createEngine } from '../../../../src/feed/simulator/engines/registry.js';
import type { FairMarket } from '../../../../src/feed/simulator/pricing/fair.js';
import { Rng } from '../../../../src/feed/simulator/rng.js';

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
    // The NBA's own games: its figures were met before by mixing it with the EuroLeague's 40-minute
    // games (the NBA alone made ~251 points a game, 2023-24: 228).
    const games = sampleGames({ world, sport: 'basketball', games: 2000, seed: 12, league: 'NBA' });
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

describe('baseball: the book prices what the engine plays (runs come in clusters)', () => {
  it('run totals, run line and a side trailing by 3+ in the 6th win as often as priced', () => {
    const leagues = world.leagues.filter((l) => l.sport === 'baseball' && l.teams.length >= 2);
    const pick = Rng.derive(3, 'sample', 'baseball');
    const priced = { over65: 0, over105: 0, runLine: 0, trailing: 0 };
    const seen = { over65: 0, over105: 0, runLine: 0, trailing: 0 };
    let probes = 0;
    const N = 2000;
    const p = (ms: FairMarket[], key: string): number => ms.find((m) => m.key === key)!.outcomes[0]!.p;
    for (let g = 0; g < N; g++) {
      const league = leagues[g % leagues.length]!;
      const hi = pick.int(0, league.teams.length - 1);
      let ai = pick.int(0, league.teams.length - 2);
      if (ai >= hi) ai++;
      const engine = createEngine('baseball', {
        rng: Rng.derive(3, 'calibration-game', g),
        league,
        home: league.teams[hi]!,
        away: league.teams[ai]!,
        names: { home: 'H', away: 'A' },
      });
      const opening = engine.markets('full');
      priced.over65 += p(opening, 'totals:6.5');
      priced.over105 += p(opening, 'totals:10.5');
      priced.runLine += p(opening, 'asian_handicap:-1.5');
      engine.begin();
      let trailing: 0 | 1 | null = null;
      let probed = false;
      for (let guard = 0; !engine.finished() && guard < 100_000; guard++) {
        engine.step();
        const s = engine.snapshot();
        if (probed || engine.finished() || s.period !== 'I6') continue;
        probed = true;
        const lead = s.score.home - s.score.away;
        if (Math.abs(lead) < 3) continue;
        trailing = lead > 0 ? 1 : 0;
        priced.trailing += engine.markets('main').find((m) => m.key === 'moneyline')!.outcomes[trailing]!.p;
        probes++;
      }
      const { home, away } = engine.result().score;
      if (home + away > 6.5) seen.over65++;
      if (home + away > 10.5) seen.over105++;
      if (home - away >= 2) seen.runLine++;
      if (trailing !== null && (trailing === 0 ? home > away : away > home)) seen.trailing++;
    }
    const near = (what: string, a: number, b: number, tol: number): void =>
      assert.ok(Math.abs(a - b) <= tol, `${what}: priced ${a.toFixed(3)}, happened ${b.toFixed(3)}`);
    near('Over 6.5 runs', priced.over65 / N, seen.over65 / N, 0.05);
    near('Over 10.5 runs', priced.over105 / N, seen.over105 / N, 0.03);
    near('home -1.5', priced.runLine / N, seen.runLine / N, 0.03);
    assert.ok(probes > 300, `${probes} games trailing by 3+ in the 6th`);
    near('trailing by 3+ in the 6th', priced.trailing / probes, seen.trailing / probes, 0.02);
  });
});

// In-play: the book's fair price at a fifth, two fifths, three fifths and four fifths of the game
// against what the market then paid (settlement's own grading). Figures and history: docs/simulator.md.
describe('in-play books are as sure as the games bear out', () => {
  const SPORTS: Array<[string, 1 | undefined]> = [
    ['soccer', 1],
    ['ice_hockey', 1],
    ['basketball', 1],
    ['american_football', 1],
    ['baseball', 1],
    ['handball', undefined],
    ['tennis', undefined],
    ['snooker', undefined],
  ];
  for (const [sport, tier] of SPORTS)
    it(`${sport}: winner, middle total and handicap priced as often as they win`, () => {
      const probes = inplayProbes({ world, sport, games: 1500, seed: 21, tier, leaguesOnly: true });
      const of = (...groups: ProbeGroup[]): Probe[] => probes.filter((p) => groups.includes(p.group));
      for (const group of ['winner', 'total', 'handicap'] as const) {
        const ps = of(group);
        assert.ok(ps.length >= 2000, `${sport} ${group}: ${ps.length} prices`);
        const s = summary(ps);
        assert.ok(
          Math.abs(s.priced - s.realised) <= 0.03,
          `${sport} ${group}: priced ${s.priced.toFixed(3)} on average, won ${s.realised.toFixed(3)}`,
        );
        const slope = calibrationSlope(ps);
        assert.ok(slope >= 0.85 && slope <= 1.18, `${sport} ${group}: calibration slope ${slope.toFixed(2)}`);
        // Each price bucket: within sampling noise (3 standard errors) and 2 points.
        for (const b of reliability(ps).filter((x) => x.n >= 200)) {
          const tol = 0.02 + 3 * Math.sqrt((b.realised * (1 - b.realised)) / b.n);
          assert.ok(
            Math.abs(b.priced - b.realised) <= tol,
            `${sport} ${group} ${b.lo.toFixed(1)}-${b.hi.toFixed(1)}: priced ${b.priced.toFixed(3)}, won ${b.realised.toFixed(3)} (${b.n})`,
          );
        }
      }
      // The side markets pooled: over- (below 1) or under-confidence (above 1) beyond noise.
      const sides = calibrationSlope(of('winner', 'handicap'));
      assert.ok(sides >= 0.92 && sides <= 1.09, `${sport} winner and handicap: calibration slope ${sides.toFixed(2)}`);
      const trailing = summary(of('trailing'));
      assert.ok(trailing.n >= 1000, `${sport}: ${trailing.n} prices of a trailing side`);
      assert.ok(
        Math.abs(trailing.priced - trailing.realised) <= 0.02,
        `${sport}: a trailing side priced ${trailing.priced.toFixed(3)}, won ${trailing.realised.toFixed(3)}`,
      );
    });

  // Cricket's main book is the winner and each side's runs (team totals, keyed team_totals_*): the
  // harness's middle total and handicap lines find no cricket market, so the winner and the trailing
  // side are what is graded, with the bands the other sports' winner groups meet (one group only, so
  // the pooled sides' band does not apply). Every league (T20 and T10), so both formats' chases count.
  it('cricket: winner and trailing side priced as often as they win (T20 and T10)', () => {
    const probes = inplayProbes({ world, sport: 'cricket', games: 1500, seed: 21, leaguesOnly: true });
    const winner = probes.filter((p) => p.group === 'winner');
    assert.ok(winner.length >= 2000, `cricket winner: ${winner.length} prices`);
    const s = summary(winner);
    assert.ok(
      Math.abs(s.priced - s.realised) <= 0.03,
      `cricket winner: priced ${s.priced.toFixed(3)} on average, won ${s.realised.toFixed(3)}`,
    );
    const slope = calibrationSlope(winner);
    assert.ok(slope >= 0.85 && slope <= 1.18, `cricket winner: calibration slope ${slope.toFixed(2)}`);
    for (const b of reliability(winner).filter((x) => x.n >= 200)) {
      const tol = 0.02 + 3 * Math.sqrt((b.realised * (1 - b.realised)) / b.n);
      assert.ok(
        Math.abs(b.priced - b.realised) <= tol,
        `cricket winner ${b.lo.toFixed(1)}-${b.hi.toFixed(1)}: priced ${b.priced.toFixed(3)}, won ${b.realised.toFixed(3)} (${b.n})`,
      );
    }
    const trailing = summary(probes.filter((p) => p.group === 'trailing'));
    assert.ok(trailing.n >= 1000, `cricket: ${trailing.n} prices of a trailing side`);
    assert.ok(
      Math.abs(trailing.priced - trailing.realised) <= 0.02,
      `cricket: a trailing side priced ${trailing.priced.toFixed(3)}, won ${trailing.realised.toFixed(3)}`,
    );
  });
});
