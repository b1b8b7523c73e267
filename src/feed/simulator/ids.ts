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
