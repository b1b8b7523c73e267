// The event lifecycle state machine: which status messages and results each status accepts.
import type { EventStatus, FinalStatus, ResultStatus } from './types.js';

/** Statuses a `status` feed message may carry (`ended` only ever comes with a `result`). */
export type FeedStatus = Exclude<EventStatus, 'prematch' | 'ended'>;

export const FEED_STATUSES: readonly FeedStatus[] = [
  'live',
  'postponed',
  'suspended',
  'delayed',
  'interrupted',
  'cancelled',
  'abandoned',
  'retired',
  'walkover',
];

export const FINAL_STATUSES: readonly FinalStatus[] = ['ended', 'cancelled', 'abandoned', 'retired', 'walkover'];

/** Statuses after which nothing but a result correction can happen. */
const TERMINAL: ReadonlySet<EventStatus> = new Set<EventStatus>(FINAL_STATUSES);

/**
 * Allowed `status` moves. A game that has not started can be delayed, postponed, cancelled or
 * awarded by walkover; once started it can be suspended, interrupted, postponed to another day,
 * abandoned or (tennis, MMA…) end by retirement; a disrupted game can resume (`live`). `ended` is
 * reached only by a result.
 */
const STATUS_MOVES: Readonly<Record<EventStatus, readonly EventStatus[]>> = {
  prematch: ['live', 'delayed', 'postponed', 'cancelled', 'walkover'],
  delayed: ['live', 'postponed', 'cancelled', 'walkover'],
  postponed: ['live', 'delayed', 'cancelled', 'walkover'],
  live: ['suspended', 'interrupted', 'postponed', 'abandoned', 'retired', 'cancelled'],
  suspended: ['live', 'interrupted', 'postponed', 'abandoned', 'retired', 'cancelled'],
  interrupted: ['live', 'suspended', 'postponed', 'abandoned', 'retired', 'cancelled'],
  ended: [],
  cancelled: [],
  abandoned: [],
  retired: [],
  walkover: [],
};

/**
 * Where a `result` may come from, per result status. An official `ended` result is accepted even
 * when the feed never reported kick-off (a missed `live` must not make a game unsettleable); a
 * correction (`ended` again) is handled by the caller. Final non-ended results may also confirm
 * the status the event already has (a `cancelled` result for a cancelled event archives its score).
 */
const RESULT_FROM: Readonly<Record<FinalStatus, readonly EventStatus[]>> = {
  ended: ['prematch', 'delayed', 'postponed', 'live', 'suspended', 'interrupted'],
  cancelled: ['prematch', 'delayed', 'postponed', 'live', 'suspended', 'interrupted', 'cancelled'],
  abandoned: ['live', 'suspended', 'interrupted', 'abandoned'],
  retired: ['live', 'suspended', 'interrupted', 'retired'],
  walkover: ['prematch', 'delayed', 'postponed', 'walkover'],
};

export type TransitionCheck = { ok: true; noop: boolean } | { ok: false; reason: string };

export function isTerminal(status: EventStatus): boolean {
  return TERMINAL.has(status);
}

/** Can a `status` message move an event from `from` to `to`? Equal statuses are a no-op. */
export function checkStatusMove(from: EventStatus, to: EventStatus): TransitionCheck {
  if (from === to) return { ok: true, noop: true };
  if (to === 'ended') {
    return { ok: false, reason: "status 'ended' is reached only through a result message" };
  }
  if (to === 'prematch') {
    return { ok: false, reason: `an event cannot go back to 'prematch' from '${from}'` };
  }
  if (STATUS_MOVES[from].includes(to)) return { ok: true, noop: false };
  if (TERMINAL.has(from)) {
    return { ok: false, reason: `event is '${from}', a final status: '${to}' is not allowed after it` };
  }
  return { ok: false, reason: `status cannot move from '${from}' to '${to}'` };
}

/**
 * Can a `result` with `status` be applied to an event currently in `from`? An `ended` event accepts
 * another `ended` result (a correction when the score differs, a no-op when it is the same; the
 * caller decides which).
 */
export function checkResult(from: EventStatus, status: FinalStatus): TransitionCheck {
  if (from === 'ended' && status === 'ended') return { ok: true, noop: false };
  if (RESULT_FROM[status].includes(from)) return { ok: true, noop: false };
  return { ok: false, reason: `a result '${status}' is not allowed for an event that is '${from}'` };
}

/** Which message kinds may still change an event's prices, markets or score. */
export function acceptsLiveData(status: EventStatus): boolean {
  return !TERMINAL.has(status);
}

/** The status the result endpoint reports for an event status. */
export function resultStatusOf(status: EventStatus): ResultStatus {
  if (status === 'prematch' || status === 'live') return 'not_ended';
  return status;
}

/** Statuses the events list shows by default (interface.md: ended and cancelled are excluded). */
export function isListedByDefault(status: EventStatus): boolean {
  return !TERMINAL.has(status);
}
