// Baseball box score: a bottom half that is never played (home ahead after the top of the last inning) shows as X.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sampleGames } from '../../../../src/feed/simulator/engines/sample-games.js';
import { buildWorld } from '../../../../src/feed/simulator/world.js';

describe('baseball scoreboard', () => {
  const games = sampleGames({ world: buildWorld(2026), sport: 'baseball', games: 200, seed: 3 });
  const last = (ps: readonly { home: number; away: number }[]): { home: number; away: number } => ps[ps.length - 1]!;

  it('marks the unplayed bottom of the 9th X, like real box scores', () => {
    const skipped = games.filter((g) => {
      const { score, periodScores } = g.result;
      return periodScores.length === 9 && score.home - last(periodScores).home > score.away;
    });
    assert.ok(
      skipped.length > 20,
      `only ${String(skipped.length)} games won by the home side without batting in the 9th`,
    );
    for (const g of skipped) {
      assert.equal(g.last.scoreboard.home[8], 'X');
      assert.equal(g.last.scoreboard.home[9], g.result.score.home, 'the R column is the home total');
    }
  });

  it('keeps the runs of every half that was played', () => {
    const played = games.filter((g) => g.result.score.away > g.result.score.home || g.result.periodScores.length > 9);
    assert.ok(played.length > 20);
    for (const g of played) assert.ok(g.last.scoreboard.home.every((v) => typeof v === 'number'));
  });
});
