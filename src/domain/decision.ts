// Who won a finished event and how: explicit where the score cannot tell (a shoot-out, penalties, a retirement, a walkover).
import type { PeriodScore, Score, TeamSide } from './types.js';

/**
 * How a finished event was decided. `regulation` covers a draw as well (winner null); `overtime`
 * is any extra period of a timed sport (OT, OT1…), `extra_time` soccer's, `extra_innings` a
 * baseball game past the 9th (cricket's super over likewise counts as `overtime`).
 */
export const DECIDED_BY = [
  'regulation',
  'overtime',
  'extra_time',
  'extra_innings',
  'shootout',
  'penalties',
  'retirement',
  'walkover',
] as const;
export type DecidedBy = (typeof DECIDED_BY)[number];

export interface Decision {
  /** The winning side; null for a draw, and for an event that is not decided (not over, cancelled). */
  winner: TeamSide | null;
  /** Null until the event is decided. */
  decidedBy: DecidedBy | null;
}

export interface DecisionInput {
  /** The event's status (`ended`, `walkover`, `retired`, …). */
  status: string;
  score: Score;
  periodScores: readonly PeriodScore[];
  /** The winner the result named (shoot-outs, penalties, retirements, walkovers), if it did. */
  winner?: TeamSide | null;
}

const UNDECIDED: Decision = { winner: null, decidedBy: null };

function sideOf(home: number, away: number): TeamSide | null {
  return home > away ? 'home' : away > home ? 'away' : null;
}

/** The decisive extra period, if any: the one that tells how the event was won. */
function extraPeriod(periods: readonly PeriodScore[]): { by: DecidedBy; period: PeriodScore } | null {
  let found: { by: DecidedBy; period: PeriodScore } | null = null;
  for (const p of periods) {
    const label = p.period.toUpperCase();
    if (label === 'SO') return { by: 'shootout', period: p };
    if (label === 'PEN') return { by: 'penalties', period: p };
    if (label === 'ET') found = { by: 'extra_time', period: p };
    else if (/^OT\d*$/.test(label) || label === 'SUPER_OVER') found ??= { by: 'overtime', period: p };
    // Innings are `I1`…: only baseball writes them (cricket's are `INN1`).
    else if (/^I(\d+)$/.test(label) && Number(label.slice(1)) > 9) found ??= { by: 'extra_innings', period: p };
  }
  return found;
}

/**
 * The decision of an event in a final state. A shoot-out or a penalty shoot-out decides what a
 * level score leaves open: the result's `winner` if it named one, else the shoot-out's own score.
 */
export function decisionOf(e: DecisionInput): Decision {
  switch (e.status) {
    case 'walkover':
      return { winner: e.winner ?? null, decidedBy: e.winner == null ? null : 'walkover' };
    case 'retired':
      return { winner: e.winner ?? null, decidedBy: e.winner == null ? null : 'retirement' };
    case 'ended':
      break;
    default:
      return UNDECIDED;
  }
  const extra = extraPeriod(e.periodScores);
  const byScore = sideOf(e.score.home, e.score.away);
  if (extra !== null && (extra.by === 'shootout' || extra.by === 'penalties')) {
    return { winner: e.winner ?? byScore ?? sideOf(extra.period.home, extra.period.away), decidedBy: extra.by };
  }
  return { winner: e.winner ?? byScore, decidedBy: extra?.by ?? 'regulation' };
}
