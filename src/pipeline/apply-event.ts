// Applies fixture, status and score messages to an event, enforcing the lifecycle.
import { checkStatusMove, isTerminal } from '../domain/lifecycle.js';
import type { SportEvent } from '../domain/types.js';
import type { FixtureMessage, ScoreMessage, StatusMessage } from '../feed/messages.js';
import { leagueOf, newEventFromFixture, periodScoresOf, sameJson, scoreboardOf } from './map-messages.js';

export type EventChange = { ok: true; next: SportEvent | null } | { ok: false; message: string };

const unchanged: EventChange = { ok: true, next: null };

/** A new prematch event, or the fixture fields of a known one (its status and score are untouched). */
export function applyFixture(current: SportEvent | undefined, msg: FixtureMessage, at: number): EventChange {
  if (current === undefined) return { ok: true, next: newEventFromFixture(msg, at) };
  if (isTerminal(current.status)) {
    return { ok: false, message: `event '${msg.event_id}' is '${current.status}': its fixture can no longer change` };
  }
  const next: SportEvent = {
    ...current,
    sport: msg.sport,
    league: leagueOf(msg),
    homeTeam: msg.home_team,
    awayTeam: msg.away_team,
    homeLogoId: msg.home_logo_id ?? null,
    awayLogoId: msg.away_logo_id ?? null,
    startTime: Date.parse(msg.start_time),
  };
  if (
    next.sport === current.sport &&
    sameJson(next.league, current.league) &&
    next.homeTeam === current.homeTeam &&
    next.awayTeam === current.awayTeam &&
    next.homeLogoId === current.homeLogoId &&
    next.awayLogoId === current.awayLogoId &&
    next.startTime === current.startTime
  ) {
    return unchanged;
  }
  next.updatedAt = at;
  return { ok: true, next };
}

export function applyStatus(current: SportEvent, msg: StatusMessage, at: number): EventChange {
  const check = checkStatusMove(current.status, msg.status);
  if (!check.ok) return { ok: false, message: `event '${current.id}': ${check.reason}` };
  if (check.noop) return unchanged;
  const next: SportEvent = { ...current, status: msg.status, statusChangedAt: at, updatedAt: at };
  // The first kick-off fixes the closing prices (read-model.ts): `?at=` shows them from then on.
  if (msg.status === 'live' && current.liveAt === undefined) next.liveAt = at;
  return { ok: true, next };
}

/** Statuses in which a game is under way, so a live score makes sense. */
const IN_PLAY = new Set(['live', 'suspended', 'interrupted']);

/** A live score update; fields the message leaves out keep their values. */
export function applyScore(current: SportEvent, msg: ScoreMessage, at: number): EventChange {
  if (!IN_PLAY.has(current.status)) {
    return {
      ok: false,
      message: `event '${current.id}' is '${current.status}': a score needs a game in play (send status 'live' first)`,
    };
  }
  const next: SportEvent = {
    ...current,
    score: { home: msg.score.home, away: msg.score.away },
    period: msg.period ?? current.period,
    clock: msg.clock !== undefined ? msg.clock : current.clock,
    periodScores: msg.period_scores !== undefined ? periodScoresOf(msg.period_scores) : current.periodScores,
    sportData: msg.sport_data !== undefined ? msg.sport_data : current.sportData,
    scoreboard:
      msg.scoreboard !== undefined
        ? msg.scoreboard === null
          ? null
          : scoreboardOf(msg.scoreboard)
        : current.scoreboard,
  };
  if (
    sameJson(next.score, current.score) &&
    next.period === current.period &&
    next.clock === current.clock &&
    sameJson(next.periodScores, current.periodScores) &&
    sameJson(next.sportData, current.sportData) &&
    sameJson(next.scoreboard, current.scoreboard)
  ) {
    return unchanged;
  }
  next.updatedAt = at;
  return { ok: true, next };
}
