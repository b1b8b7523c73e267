// Stable integer ids: event numbers from (league, day, slot); market and selection ids derived from the event number.

const DAY_FACTOR = 100;
const LEAGUE_FACTOR = 10_000_000;
/** Room for 10,000 markets and 100,000 selections per event; ids stay far below 2^53. */
const MARKETS_PER_EVENT = 10_000;
const SELECTIONS_PER_EVENT = 100_000;

/** Event number of the `slot`-th fixture of a league on a UTC day (days since 1970). */
export function eventNumber(leagueIndex: number, epochDay: number, slot: number): number {
  if (slot < 0 || slot >= DAY_FACTOR) throw new RangeError(`fixture slot ${slot} out of range`);
  return (leagueIndex + 1) * LEAGUE_FACTOR + epochDay * DAY_FACTOR + slot;
}

export function eventIdOf(eventNum: number): string {
  return `sim-${eventNum}`;
}

/** The event number of a simulator event id (`sim-…`), or null for any other id. */
export function eventNumberOf(eventId: string): number | null {
  const m = /^sim-(\d{1,15})$/.exec(eventId);
  return m === null ? null : Number(m[1]);
}

/** The league index, day and slot an event number was made of (eventNumber's inverse). */
export function eventNumberParts(eventNum: number): { leagueIndex: number; day: number; slot: number } {
  const rest = eventNum % LEAGUE_FACTOR;
  return {
    leagueIndex: Math.floor(eventNum / LEAGUE_FACTOR) - 1,
    day: Math.floor(rest / DAY_FACTOR),
    slot: rest % DAY_FACTOR,
  };
}

/**
 * Lines added in play (live-lines.ts) take market indexes from here and two selection indexes
 * each from LINE_SELECTION_BASE: `LINE_GROUPS` groups (a family and period) of `LINE_SLOTS` slots,
 * a slot per line modulo the group's ladder. An opening layout stays below both bases (the
 * largest, tier-1 soccer, has ~1,050 markets and ~2,200 selections).
 */
export const LINE_MARKET_BASE = 2_000;
export const LINE_SELECTION_BASE = 20_000;
export const LINE_GROUPS = 64;
export const LINE_SLOTS = 125;

export function marketIdOf(eventNum: number, index: number): number {
  if (index >= MARKETS_PER_EVENT) throw new RangeError(`too many markets for event ${eventNum}`);
  return eventNum * MARKETS_PER_EVENT + index;
}

export function selectionIdOf(eventNum: number, index: number): number {
  if (index >= SELECTIONS_PER_EVENT) throw new RangeError(`too many selections for event ${eventNum}`);
  return eventNum * SELECTIONS_PER_EVENT + index;
}

export const DAY_MS = 86_400_000;

export function epochDayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}
