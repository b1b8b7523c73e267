// Turns a result message into the event's final state and its archived EventResult (first or corrected).
import { checkResult } from '../domain/lifecycle.js';
import type { EventResult, SportEvent } from '../domain/types.js';
import type { ResultMessage } from '../feed/messages.js';
import { periodScoresOf, sameJson } from './map-messages.js';

export type ResultChange =
  | { ok: true; noop: true }
  | { ok: true; noop: false; event: SportEvent; result: EventResult; correction: boolean }
  | { ok: false; message: string };

/**
 * `previous` is the result already archived for this event, if any. Re-delivery of the same result
 * is a no-op; a different score, period scores or winner for an ended event is a correction that
 * raises the revision.
 */
export function applyResult(
  current: SportEvent,
  previous: EventResult | null,
  msg: ResultMessage,
  at: number,
): ResultChange {
  const check = checkResult(current.status, msg.status);
  if (!check.ok) return { ok: false, message: `event '${current.id}': ${check.reason}` };
  const periodScores = msg.period_scores !== undefined ? periodScoresOf(msg.period_scores) : current.periodScores;
  const endedAt = msg.ended_at !== undefined ? Date.parse(msg.ended_at) : (previous?.endedAt ?? at);
  const winner = msg.winner ?? null;
  const score = { home: msg.score.home, away: msg.score.away };
  if (
    previous !== null &&
    previous.status === msg.status &&
    sameJson(previous.score, score) &&
    sameJson(previous.periodScores, periodScores) &&
    previous.winner === winner &&
    (msg.ended_at === undefined || previous.endedAt === endedAt)
  ) {
    return { ok: true, noop: true };
  }
  const correction = previous !== null;
  const result: EventResult = {
    eventId: current.id,
    status: msg.status,
    score,
    periodScores,
    winner,
    endedAt,
    revision: (previous?.revision ?? 0) + 1,
    recordedAt: at,
  };
  const event: SportEvent = {
    ...current,
    status: msg.status,
    score,
    periodScores,
    endedAt,
    winner,
    statusChangedAt: current.status === msg.status ? current.statusChangedAt : at,
    updatedAt: at,
  };
  return { ok: true, noop: false, event, result, correction };
}
