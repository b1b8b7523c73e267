// Tests of the realism references: figures computed from the openfootball seasons and the NFL scores-and-lines file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  favouritePriceFromSpread,
  nflFigures,
  referenceTable,
  soccerSeasonFigures,
} from '../../../src/feed/simulator/realism/references.js';

// Copies of /work/shared/data (read from the source tree: the compiled test runs from dist/test/feed/simulator/).
const FIXTURES = new URL('../../../../test/feed/fixtures/', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, FIXTURES), 'utf8');

describe('soccer references from openfootball seasons', () => {
  it('counts results, goals, 0-0 and 4+ margins of played matches only', () => {
    const f = soccerSeasonFigures([
      { matches: [{ score: { ft: [2, 0] } }, { score: { ft: [0, 0] } }, { score: {} }, { score: { ft: [1, 5] } }] },
    ]);
    assert.equal(f.matches, 3);
    assert.deepEqual([f.homeShare, f.drawShare, f.awayShare], [1 / 3, 1 / 3, 1 / 3]);
    assert.equal(f.goalsPerGame, 8 / 3);
    assert.equal(f.nilNilShare, 1 / 3);
    assert.equal(f.bigMarginShare, 1 / 3);
  });

  it('Premier League + Bundesliga 2023-24: 686 matches, real-looking shares', () => {
    const f = soccerSeasonFigures([
      JSON.parse(read('openfootball/en.1.2023-24.json')),
      JSON.parse(read('openfootball/de.1.2023-24.json')),
    ]);
    assert.equal(f.matches, 380 + 306);
    assert.ok(f.homeShare > 0.4 && f.homeShare < 0.5, String(f.homeShare));
    assert.ok(f.drawShare > 0.18 && f.drawShare < 0.3, String(f.drawShare));
    assert.ok(f.goalsPerGame > 2.9 && f.goalsPerGame < 3.4, String(f.goalsPerGame));
    assert.ok(Math.abs(f.homeShare + f.drawShare + f.awayShare - 1) < 1e-12);
  });
});

describe('NFL references from scores and closing lines', () => {
  it('reads a hand-made file', () => {
    const csv = [
      'schedule_date,score_home,score_away,spread_favorite,over_under_line',
      '1,20,17,-3,44',
      '2,10,40,-14,40',
      '3,,,-7,45',
      '4,24,24,-1,48',
    ].join('\n');
    const f = nflFigures(csv);
    assert.equal(f.games, 3);
    assert.equal(f.homeShare, 1 / 3);
    assert.equal(f.tieShare, 1 / 3);
    assert.equal(f.pointsPerGame, (37 + 50 + 48) / 3);
    assert.equal(f.bigMarginShare, 1 / 3);
    assert.equal(f.meanTotalLine, (44 + 40 + 48) / 3);
    assert.equal(f.spreadAtLeast10, 1 / 3);
  });

  it('an implied favourite price shortens with the spread', () => {
    assert.ok(favouritePriceFromSpread(0) > 1.85 && favouritePriceFromSpread(0) < 1.95);
    assert.ok(favouritePriceFromSpread(3) > favouritePriceFromSpread(7));
    assert.ok(favouritePriceFromSpread(14) < 1.2 && favouritePriceFromSpread(14) > 1.1);
  });

  it('2012-2022: 2,974 games, ~46 points, few favourites at 1.15 or shorter', () => {
    const f = nflFigures(read('nfl/nfl-2012-2022-scores-lines.csv'));
    assert.equal(f.games, 2974);
    assert.ok(f.pointsPerGame > 43 && f.pointsPerGame < 48, String(f.pointsPerGame));
    assert.ok(f.homeShare > 0.5 && f.homeShare < 0.6, String(f.homeShare));
    assert.ok(f.favUnder115 > 0.01 && f.favUnder115 < 0.1, String(f.favUnder115));
    assert.ok(f.favUnder105 < 0.01, String(f.favUnder105));
  });

  it('every reference has a source and a band around its value', () => {
    const t = referenceTable(
      soccerSeasonFigures([JSON.parse(read('openfootball/en.1.2023-24.json'))]),
      nflFigures(read('nfl/nfl-2012-2022-scores-lines.csv')),
    );
    for (const [sport, refs] of t)
      for (const r of refs) {
        assert.ok(r.source.length > 0, `${sport} ${r.figure}`);
        assert.ok(
          r.low <= r.value && r.value <= r.high,
          `${sport} ${r.figure}: ${r.value} outside [${r.low}, ${r.high}]`,
        );
      }
  });
});
