// Ice hockey lines as North American books settle them: `puck_line_ot:L`, `totals_ot:L`, `team_totals_home_ot:L`, `team_totals_away_ot:L`.
import type { Score, TeamSide } from '../types.js';
import { gradeCover, gradeOverUnder, lineQuarters, overDecided } from './lines.js';
import { basisOf, gradeOutcomes, refundAll, ungradeable } from './outcome.js';
import { scopeOf } from './periods.js';
import type { CodeGrader, FamilyGrader } from './types.js';
import type { EventResult } from '../types.js';

/** The scope these families grade on (explanations): the full game incl. overtime and the shoot-out. */
export const SHOOTOUT_SCOPE = 'full_game_shootout';

/** The side that won the shoot-out: `winner`, else the `SO` row's tally; null when neither tells. */
function shootoutWinner(result: EventResult): TeamSide | null {
  if (result.winner !== null) return result.winner;
  const so = result.periodScores.find((r) => r.period === 'SO');
  if (so === undefined || so.home === so.away) return null;
  return so.home > so.away ? 'home' : 'away';
}

/**
 * The final score with the shoot-out counted as one goal for its winner: `score` (overtime
 * included) as it is when it is not level (also when a producer already counted the shoot-out goal
 * in it, as the NHL does), else one goal more for the shoot-out winner. Null when it is level and
 * nothing names a shoot-out winner.
 */
export function scoreWithShootout(result: EventResult): { score: Score; shootout: TeamSide | null } | null {
  const { home, away } = result.score;
  if (home !== away) return { score: { home, away }, shootout: null };
  const side = shootoutWinner(result);
  if (side === null) return null;
  return { score: { home: home + (side === 'home' ? 1 : 0), away: away + (side === 'away' ? 1 : 0) }, shootout: side };
}

/**
 * A line graded on the full game incl. overtime and the shoot-out (ice hockey only: elsewhere no
 * rule knows what the shoot-out goal would be). Play stopped early: an over already won stands,
 * the rest is refunded, as for the regulation lines.
 */
function overtimeLine(
  grade: (home: number, away: number, lineQ: number) => CodeGrader,
  decided?: (home: number, away: number, lineQ: number) => boolean,
): FamilyGrader {
  return (market, key, ctx) => {
    const lineQ = lineQuarters(key.line ?? Number.NaN);
    if (lineQ === null) return ungradeable(`${market.key}: a line is a multiple of 0.25`);
    if (ctx.sport !== 'ice_hockey') return ungradeable(`${market.key}: ${key.family} is an ice hockey family`);
    const scope = scopeOf(ctx.sport, ctx.result, null, 'final');
    if (scope.kind !== 'score') return ungradeable(`${market.key}: the result has no score`);
    if (!scope.complete) {
      const score = { home: scope.home, away: scope.away };
      if (decided === undefined || !decided(scope.home, scope.away, lineQ)) {
        return refundAll(market, basisOf({ score, scope: SHOOTOUT_SCOPE, rule: 'abandoned_refund' }));
      }
      const basis = basisOf({ score, scope: SHOOTOUT_SCOPE, rule: 'abandoned_decided' });
      return gradeOutcomes(market, grade(scope.home, scope.away, lineQ), basis);
    }
    const full = scoreWithShootout(ctx.result);
    if (full === null) {
      return refundAll(market, basisOf({ score: ctx.result.score, scope: SHOOTOUT_SCOPE, rule: 'tie_refund' }));
    }
    const { score, shootout } = full;
    return gradeOutcomes(
      market,
      grade(score.home, score.away, lineQ),
      basisOf({ score, scope: SHOOTOUT_SCOPE, winner: shootout }),
    );
  };
}

export const gradePuckLineOt: FamilyGrader = overtimeLine(
  (home, away, lineQ) => (code) =>
    code === 'home' ? gradeCover(home - away, lineQ) : code === 'away' ? gradeCover(away - home, -lineQ) : undefined,
);

function overUnderOt(count: (home: number, away: number) => number): FamilyGrader {
  return overtimeLine(
    (home, away, lineQ) => (code) => gradeOverUnder(count(home, away), lineQ, code),
    (home, away, lineQ) => overDecided(count(home, away), lineQ),
  );
}

export const gradeTotalsOt: FamilyGrader = overUnderOt((home, away) => home + away);
export const gradeTeamTotalsHomeOt: FamilyGrader = overUnderOt((home) => home);
export const gradeTeamTotalsAwayOt: FamilyGrader = overUnderOt((_home, away) => away);
