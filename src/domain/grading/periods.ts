// Which score a market grades on: the full game or a period of it, per sport, and whether that score is final.
import { SPORTS, type SportInfo } from '../sports.js';
import type { EventResult, PeriodScore } from '../types.js';

/** Sport keys whose descriptor (domain/sports.ts) matches: built once, looked up per market. */
const sportsWhere = (keep: (s: SportInfo) => boolean): ReadonlySet<string> =>
  new Set(SPORTS.filter(keep).map((s) => s.key));

/** Sports whose full game is regulation time: extra time, overtime, penalties and shoot-outs never count. */
const REGULATION_SPORTS = sportsWhere((s) => s.fullGame === 'regulation');
/** Sports whose halves are two quarters each. */
const QUARTER_SPORTS = sportsWhere((s) => s.halves === 'quarters');
/** Sports whose `score` counts units won (sets, games, frames, maps), one period row per unit. */
const UNIT_SPORTS = sportsWhere((s) => s.fullGame === 'units');
export const ESPORTS = sportsWhere((s) => s.esport);
/** Esports whose N-th game has the row `GN` rather than `MN`. */
const GAME_ROW_ESPORTS = sportsWhere((s) => s.esport && s.unitRow === 'G');
/** Rows outside regulation time. */
const EXTRA_ROW = /^(ET|PEN|SO|OT\d*)$/;

/**
 * The full-game score a market reads:
 * - `match`: the sport's full game (regulation for soccer, ice hockey, handball, rugby; `score` otherwise);
 * - `final`: `score` as reported (overtime included; units won in set, frame and map sports);
 * - `regulation`: every row but extra time, overtime, penalties and shoot-out (any sport);
 * - `games`: in tennis the games of all sets (a tie-break is one game); `match` elsewhere.
 */
export type ScoreBasis = 'match' | 'final' | 'regulation' | 'games';

export type Scope =
  /** `complete` is false when play stopped before the scope ended (abandoned, retired): the score may be partial. */
  | { kind: 'score'; home: number; away: number; complete: boolean }
  /** The period was never played: its markets are refunded. */
  | { kind: 'not_played' }
  /** The result lacks what the rule needs. */
  | { kind: 'missing'; reason: string };

/** Names of the result rows a key period covers (`1h` → `1H`, or `Q1`+`Q2` in basketball). */
export function periodRows(sport: string, period: string): string[] {
  if (QUARTER_SPORTS.has(sport)) {
    if (period === '1h') return ['Q1', 'Q2'];
    if (period === '2h') return ['Q3', 'Q4'];
  }
  const map = /^m(\d+)$/.exec(period);
  if (map !== null && GAME_ROW_ESPORTS.has(sport)) return [`G${map[1]}`];
  // Everywhere else the key period is the row name in lower case: `q3` is `Q3`, `s2` is `S2`.
  return [period.toUpperCase()];
}

export function isUnitSport(sport: string): boolean {
  return UNIT_SPORTS.has(sport);
}

/** Units (sets, frames, maps…) completed: `score` counts them in unit sports. */
export function completedUnits(result: EventResult): number {
  return result.score.home + result.score.away;
}

/**
 * Whether a row's score is final. After `ended` every row is. When play stopped early, a unit sport's
 * N-th unit is final when N units were completed (`score`); elsewhere every row but the last is
 * (the last one was in progress — also when play stopped in a break, which cannot be told apart).
 */
function rowComplete(sport: string, result: EventResult, row: PeriodScore, index: number): boolean {
  if (result.status === 'ended') return true;
  if (UNIT_SPORTS.has(sport)) {
    const n = /(\d+)$/.exec(row.period);
    return n !== null && Number(n[1]) <= completedUnits(result);
  }
  return index < result.periodScores.length - 1;
}

function sumRows(
  sport: string,
  result: EventResult,
  keep: (row: PeriodScore) => boolean,
): { home: number; away: number; rows: number; complete: boolean } {
  let home = 0;
  let away = 0;
  let rows = 0;
  let complete = true;
  result.periodScores.forEach((row, i) => {
    if (!keep(row)) return;
    home += row.home;
    away += row.away;
    rows++;
    if (!rowComplete(sport, result, row, i)) complete = false;
  });
  return { home, away, rows, complete };
}

/** The full game, or the period `period` (lower-case key suffix), of a result. */
export function scopeOf(sport: string, result: EventResult, period: string | null, basis: ScoreBasis = 'match'): Scope {
  if (period !== null) return periodScope(sport, result, period);
  const ended = result.status === 'ended';
  const effective = basis === 'match' ? (REGULATION_SPORTS.has(sport) ? 'regulation' : 'final') : basis;
  switch (effective) {
    case 'final':
      return { kind: 'score', home: result.score.home, away: result.score.away, complete: ended };
    case 'regulation': {
      const s = sumRows(sport, result, (r) => !EXTRA_ROW.test(r.period));
      // Without period rows the reported score is all there is.
      if (s.rows === 0) return { kind: 'score', home: result.score.home, away: result.score.away, complete: ended };
      // Regulation is over when a row outside it (extra time, overtime) was reached.
      const last = result.periodScores[result.periodScores.length - 1];
      const complete = ended || (last !== undefined && EXTRA_ROW.test(last.period) && s.complete);
      return { kind: 'score', home: s.home, away: s.away, complete };
    }
    case 'games': {
      if (sport !== 'tennis') return scopeOf(sport, result, null, 'match');
      const s = sumRows(sport, result, (r) => /^S\d+$/.test(r.period));
      if (s.rows === 0) {
        if (!ended) return { kind: 'score', home: 0, away: 0, complete: false };
        return { kind: 'missing', reason: 'the result has no set scores to count games from' };
      }
      return { kind: 'score', home: s.home, away: s.away, complete: ended };
    }
  }
}

function periodScope(sport: string, result: EventResult, period: string): Scope {
  const names = periodRows(sport, period);
  let found = 0;
  const s = sumRows(sport, result, (r) => {
    const hit = names.includes(r.period);
    if (hit) found++;
    return hit;
  });
  if (found === 0) return { kind: 'not_played' };
  // A period with rows still to come (the second quarter of a half) is not over.
  const complete = s.complete && (result.status === 'ended' || found === names.length);
  return { kind: 'score', home: s.home, away: s.away, complete };
}

/** Rounds started in a fight: its `R1`, `R2`… rows. */
export function roundsStarted(result: EventResult): number {
  return result.periodScores.filter((r) => /^R\d+$/.test(r.period)).length;
}

/** The unit a unit sport's `score` counts. */
function unitsOf(sport: string): string {
  if (ESPORTS.has(sport)) return GAME_ROW_ESPORTS.has(sport) ? 'games' : 'maps';
  if (sport === 'snooker') return 'frames';
  return 'sets';
}

/**
 * The name of the scope a market grades on (explanations): a period's key (`1h`, `p1`, `s2`), or for
 * the full game `regulation`, `full_game` (overtime included), `games` (tennis), or the units a unit
 * sport counts (`sets`, `maps`, `games`, `frames`).
 */
export function scopeName(sport: string, period: string | null, basis: ScoreBasis = 'match'): string {
  if (period !== null) return period;
  const effective = basis === 'match' ? (REGULATION_SPORTS.has(sport) ? 'regulation' : 'final') : basis;
  if (effective === 'regulation') return 'regulation';
  if (effective === 'games') return sport === 'tennis' ? 'games' : scopeName(sport, null, 'match');
  return UNIT_SPORTS.has(sport) ? unitsOf(sport) : 'full_game';
}

/** A scope in words: `regulation time (P1-P3; overtime and shoot-out excluded)`, `the first half`… */
export function scopeText(sport: string, scope: string): string {
  switch (scope) {
    case 'regulation':
      if (sport === 'ice_hockey') return 'regulation time (P1-P3; overtime and shoot-out excluded)';
      return 'regulation time (extra time and penalties excluded)';
    case 'full_game':
      return 'the full game (overtime included)';
    case 'full_game_shootout':
      return 'the full game incl. OT and shoot-out';
    case 'games':
      return sport === 'tennis' ? 'games won over all sets' : 'games won';
    case 'sets':
    case 'maps':
    case 'frames':
      return `${scope} won`;
    case 'rounds':
      return 'rounds started';
    case '1h':
      return 'the first half';
    case '2h':
      return 'the second half';
    default: {
      const unit = /^([sgfm])(\d+)$/.exec(scope);
      if (unit !== null) {
        const names: Record<string, string> = { s: 'set', g: 'game', f: 'frame', m: unitsOf(sport).slice(0, -1) };
        return `${names[unit[1] ?? 's'] ?? 'unit'} ${unit[2]}`;
      }
      return `period ${periodRows(sport, scope).join('+')}`;
    }
  }
}
