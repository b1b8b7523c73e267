// The reference figures said to come from ../shared/data are recomputed from those files (skipped where the files are absent).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { AMERICAN_FOOTBALL, SOCCER } from '../../../../src/feed/simulator/engines/reference-figures.js';

const DATA = new URL('../../../../../../shared/data/', import.meta.url);
const NFL = new URL('nfl/nfl-2012-2022-scores-lines.csv', DATA);
const LEAGUES = ['en.1.2023-24.json', 'de.1.2023-24.json'].map((f) => new URL(`openfootball/${f}`, DATA));

const close = (actual: number, expected: number, tolerance: number, what: string): void =>
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${what}: file gives ${actual.toFixed(4)}, constant ${String(expected)}`,
  );

describe('reference figures computed from the dataset files', () => {
  it('NFL 2012-2022: points, home wins, margin spread, 1-3 point games', { skip: !existsSync(NFL) }, () => {
    const lines = readFileSync(NFL, 'utf8').trim().split('\n');
    const header = lines[0]!.split(',');
    const [hi, ai] = [header.indexOf('score_home'), header.indexOf('score_away')];
    const margins = lines.slice(1).map((l) => {
      const c = l.split(',');
      return [Number(c[hi]), Number(c[ai])] as const;
    });
    const n = margins.length;
    assert.equal(n, 2974);
    close(margins.reduce((s, [h, a]) => s + h + a, 0) / n, AMERICAN_FOOTBALL.pointsPerGame.value, 0.01, 'points');
    close(margins.filter(([h, a]) => h > a).length / n, AMERICAN_FOOTBALL.homeWinShare.value, 0.001, 'home wins');
    close(
      Math.sqrt(margins.reduce((s, [h, a]) => s + (h - a) ** 2, 0) / n),
      AMERICAN_FOOTBALL.marginSd.value,
      0.01,
      'sd',
    );
    const within3 = margins.filter(([h, a]) => h !== a && Math.abs(h - a) <= 3).length / n;
    close(within3, AMERICAN_FOOTBALL.withinThreeShare.value, 0.001, '1-3 points');
  });

  it('Premier League and Bundesliga 2023-24: goals, results, 0-0', { skip: !LEAGUES.every(existsSync) }, () => {
    const scores = LEAGUES.flatMap((f) => {
      const doc = JSON.parse(readFileSync(f, 'utf8')) as { matches: Array<{ score?: { ft?: [number, number] } }> };
      return doc.matches.flatMap((m) => (m.score?.ft ? [m.score.ft] : []));
    });
    const n = scores.length;
    assert.equal(n, 686);
    // The constants are the two leagues' average, rounded to the half-per-cent.
    close(scores.reduce((s, [h, a]) => s + h + a, 0) / n, SOCCER.goalsPerGame.value, 0.01, 'goals');
    close(scores.filter(([h, a]) => h > a).length / n, SOCCER.homeWinShare.value, 0.005, 'home wins');
    close(scores.filter(([h, a]) => h === a).length / n, SOCCER.drawShare.value, 0.005, 'draws');
    close(scores.filter(([h, a]) => h < a).length / n, SOCCER.awayWinShare.value, 0.005, 'away wins');
    close(scores.filter(([h, a]) => h + a === 0).length / n, SOCCER.goallessShare.value, 0.005, '0-0');
  });
});
