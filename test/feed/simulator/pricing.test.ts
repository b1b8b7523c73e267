// Tests of the pricing building blocks: margin, lines with pushes and quarter lines, score grids, races, tennis.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compoundPoissonAbove,
  Dist,
  Grid,
  normalDist,
  poissonAbove,
  poissonDist,
} from '../../../src/feed/simulator/pricing/dist.js';
import {
  asianHandicap,
  correctScore,
  doubleChance,
  lineShares,
  matchResult,
  totals,
} from '../../../src/feed/simulator/pricing/families.js';
import { oddsWithMargin } from '../../../src/feed/simulator/pricing/margin.js';
import { raceFinals, raceWin } from '../../../src/feed/simulator/pricing/race.js';
import { seriesFinals, seriesWin } from '../../../src/feed/simulator/pricing/series.js';
import { gameWin, matchOutlook, setWin } from '../../../src/feed/simulator/pricing/tennis.js';

const OPTS = { margin: 0.05, maxOdds: 1000 };
const implied = (odds: number[]): number => odds.reduce((s, o) => s + 1 / o, 0);
const names = { home: 'Home', away: 'Away' };

describe('oddsWithMargin', () => {
  const cases: Array<[string, number[]]> = [
    ['an even two-way market', [0.5, 0.5]],
    ['a three-way market', [0.45, 0.27, 0.28]],
    ['a favourite near the floor', [0.96, 0.04]],
    ['a near certainty', [0.999, 0.001]],
    ['many outcomes', Array.from({ length: 20 }, () => 0.05)],
  ];
  for (const [name, ps] of cases) {
    it(`sums implied probabilities to 1 + margin for ${name}`, () => {
      const odds = oddsWithMargin(ps, OPTS);
      assert.ok(odds.every((o) => o >= 1.01 && o <= 1000));
      assert.ok(odds.every((o) => Math.round(o * 100) === o * 100 || Math.abs(Math.round(o * 100) - o * 100) < 1e-6));
      assert.ok(Math.abs(implied(odds) - 1.05) < 0.01, `implied ${implied(odds)} for ${odds.join(', ')}`);
    });
  }

  it('clamps at 1.01 and moves the overround to the other outcomes', () => {
    const odds = oddsWithMargin([0.99, 0.01], OPTS);
    assert.equal(odds[0], 1.01);
    assert.ok(odds[1]! > 10 && odds[1]! < 25);
  });

  it('shares a two-way overround evenly: a strong favourite stays on the board, the long shot pays for it', () => {
    // Proportionally (p × 1.05) the favourite was 1.01 — off the board in play — against 16.7.
    assert.deepEqual(oddsWithMargin([0.955, 0.045], OPTS), [1.02, 14.29]);
    assert.deepEqual(oddsWithMargin([0.5, 0.5], OPTS), [1.9, 1.9]);
    assert.deepEqual(oddsWithMargin([0.7, 0.3], OPTS), [1.38, 3.08]);
    // Three or more outcomes keep the proportional margin.
    const three = oddsWithMargin([0.45, 0.27, 0.28], OPTS);
    assert.deepEqual(
      three,
      [0.45, 0.27, 0.28].map((p) => Math.round((1 / (p * 1.05)) * 100) / 100),
    );
  });

  it('prices double chance (outcomes summing to 2) to 2 × (1 + margin)', () => {
    const odds = oddsWithMargin([0.97, 0.95, 0.08], OPTS);
    assert.ok(Math.abs(implied(odds) - 2.1) < 0.02, `implied ${implied(odds)}`);
  });
});

describe('lineShares', () => {
  const margin = new Dist(-1, Float64Array.of(0.3, 0.3, 0.4)); // away by 1, draw, home by 1

  it('half line: plain win or loss', () => {
    const s = lineShares(margin, -0.5);
    assert.ok(Math.abs(s.pos - 0.4) < 1e-12);
  });

  it('whole line: a push refunds, so the price is the win share of decided cases', () => {
    const s = lineShares(margin, 0);
    assert.ok(Math.abs(s.pos - 0.4 / 0.7) < 1e-12);
  });

  it('quarter line -0.25 with a draw loses half: split over 0 and -0.5', () => {
    const s = lineShares(margin, -0.25);
    // W = 0.5×0.4 + 0.5×0.4, L = 0.5×0.3 + 0.5×(0.3+0.3)
    assert.ok(Math.abs(s.pos - 0.4 / (0.4 + 0.45)) < 1e-12);
  });

  it('marks a line decided when every case is a push', () => {
    assert.equal(lineShares(Dist.point(2), -2).decided, true);
  });
});

describe('score grids', () => {
  const grid = new Grid(poissonDist(1.5, 12), poissonDist(1.1, 12));

  it('1x2 and correct score are complete and agree', () => {
    const m = matchResult(names, grid.margin());
    assert.ok(Math.abs(m.outcomes.reduce((s, o) => s + o.p, 0) - 1) < 1e-9);
    const cs = correctScore(grid, 5);
    assert.ok(Math.abs(cs.outcomes.reduce((s, o) => s + o.p, 0) - 1) < 1e-9);
    const homeWins = cs.outcomes
      .filter((o) => /^\d+-\d+$/.test(o.code) && Number(o.code.split('-')[0]) > Number(o.code.split('-')[1]))
      .reduce((s, o) => s + o.p, 0);
    assert.ok(homeWins < m.outcomes[0]!.p && homeWins > m.outcomes[0]!.p - 0.02);
  });

  it('totals over and under move the right way with the line', () => {
    const total = grid.total();
    const over15 = totals(total, 1.5).outcomes[0]!.p;
    const over35 = totals(total, 3.5).outcomes[0]!.p;
    assert.ok(over15 > over35);
  });

  it('a goal already scored decides totals 0.5 and fixes the double chance sum', () => {
    const after = new Grid(poissonDist(0.5, 10).shift(1), poissonDist(0.4, 10));
    assert.equal(totals(after.total(), 0.5).decided, true);
    const dc = doubleChance(names, after.margin());
    assert.ok(Math.abs(dc.outcomes.reduce((s, o) => s + o.p, 0) - 2) < 1e-9);
  });

  it('handicap 0 is the draw no bet of the margin', () => {
    const ah = asianHandicap(names, grid.margin(), 0);
    const [h, , a] = [grid.margin().above(0), 0, grid.margin().below(0)];
    assert.ok(Math.abs(ah.outcomes[0]!.p - h / (h + a)) < 1e-12);
  });

  it('normal distributions are discretised with all their mass', () => {
    const d = normalDist(100, 12);
    assert.ok(Math.abs(d.p.reduce((s, p) => s + p, 0) - 1) < 1e-9);
    assert.ok(Math.abs(d.mean() - 100) < 0.01);
  });
});

describe('races and series', () => {
  it('an even race is even from level scores and favours the leader', () => {
    const rules = { target: 25, winByTwo: true };
    assert.ok(Math.abs(raceWin(0, 0, 0.5, rules) - 0.5) < 1e-12);
    assert.ok(Math.abs(raceWin(24, 24, 0.5, rules) - 0.5) < 1e-12);
    assert.ok(raceWin(20, 15, 0.5, rules) > 0.9);
    assert.equal(raceWin(25, 23, 0.5, rules), 1);
  });

  it('race finals sum to one and agree with the win probability', () => {
    const rules = { target: 11, winByTwo: true };
    const finals = [...raceFinals(3, 5, 0.55, rules).values()];
    const total = finals.reduce((s, f) => s + f.p, 0);
    const win = finals.filter((f) => f.home > f.away).reduce((s, f) => s + f.p, 0);
    assert.ok(Math.abs(total - 1) < 1e-9);
    assert.ok(Math.abs(win - raceWin(3, 5, 0.55, rules)) < 1e-6);
  });

  it('a best-of-3 at 1-0 with a sure current unit is won', () => {
    const finals = seriesFinals({ names, bestOf: 3, won: [1, 0], pCurrent: 1, pFresh: 0.5, inProgress: true });
    assert.equal(seriesWin(finals), 1);
    assert.deepEqual(
      finals.map((f) => `${f.home}-${f.away}`),
      ['2-0'],
    );
  });
});

describe('tennis probabilities', () => {
  it('a server winning 60% of points holds about 74% of games', () => {
    assert.ok(Math.abs(gameWin(0.6, 0, 0) - 0.7357) < 0.001);
    assert.equal(gameWin(0.6, 4, 2), 1);
  });

  it('equal players are even in a set and a match, and the match distributions are complete', () => {
    const sp = { home: 0.63, away: 0.63 };
    const fresh = {
      games: [0, 0] as [number, number],
      homeServing: true,
      points: [0, 0] as [number, number],
      tiebreak: false,
      tbHomeFirst: true,
    };
    const freshAway = { ...fresh, homeServing: false, tbHomeFirst: false };
    assert.ok(Math.abs((setWin(sp, fresh) + setWin(sp, freshAway)) / 2 - 0.5) < 1e-9);
    const o = matchOutlook(sp, 3, [0, 0], [0, 0], fresh);
    assert.ok(Math.abs(o.pHome - 0.5) < 0.02);
    assert.ok(Math.abs([...o.sets.values()].reduce((s, p) => s + p, 0) - 1) < 1e-9);
    assert.ok(Math.abs(o.totalGames.reduce((s, p) => s + p, 0) - 1) < 1e-9);
  });

  it('a better server is the favourite', () => {
    const o = matchOutlook({ home: 0.68, away: 0.6 }, 5, [0, 0], [0, 0], {
      games: [0, 0],
      homeServing: true,
      points: [0, 0],
      tiebreak: false,
      tbHomeFirst: true,
    });
    assert.ok(o.pHome > 0.8);
  });
});

describe('compoundPoissonAbove', () => {
  it('is a Poisson with jumps of 1, and a doubled Poisson with jumps of 2', () => {
    for (const x of [-1, 0, 3, 7, 12]) {
      assert.ok(Math.abs(compoundPoissonAbove([4.2], x) - poissonAbove(4.2, x)) < 1e-12, `jumps of 1, x ${x}`);
      assert.ok(
        Math.abs(compoundPoissonAbove([0, 4.2], 2 * x + 1) - poissonAbove(4.2, x)) < 1e-12,
        `jumps of 2, x ${x}`,
      );
    }
  });

  it('has the mixed sum mean of its jumps (1s, 2s and 3s)', () => {
    const rates = [0.4, 3, 1.1];
    let mean = 0;
    for (let s = 0; s < 200; s++) mean += compoundPoissonAbove(rates, s);
    assert.ok(Math.abs(mean - (0.4 + 2 * 3 + 3 * 1.1)) < 1e-9, `mean ${mean}`);
  });
});
