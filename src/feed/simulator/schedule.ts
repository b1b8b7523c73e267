// The fixtures of a league on a UTC day: how many, when, and who plays whom — drawn from the day's own random stream.
import { DAY_MS, eventNumber } from './ids.js';
import { Rng } from './rng.js';
import type { SimLeague, SimTeam } from './world.js';

export interface ScheduledFixture {
  eventNum: number;
  home: SimTeam;
  away: SimTeam;
  startTime: number;
}

const MAX_PER_DAY = 99;
/** A competitor is not booked twice within this long (a game and some rest). */
const BUSY_MS = 3 * 3_600_000;

function weekdayFactor(league: SimLeague, day: number): number {
  const weights = league.plan.weekdays;
  if (weights === undefined) return 1;
  const mean = weights.reduce((s, w) => s + w, 0) / weights.length;
  const weekday = new Date(day * DAY_MS).getUTCDay();
  return mean > 0 ? (weights[weekday] ?? 0) / mean : 0;
}

/** Slot `at` of the i-th of `count` equal shares of `slots`, or one drawn in it (each share holds at least one slot). */
function staggeredSlot(rng: Rng, i: number, count: number, slots: number, at: number | undefined): number {
  const from = Math.floor((i * slots) / count);
  const to = Math.max(from, Math.floor(((i + 1) * slots) / count) - 1);
  return Math.min(slots - 1, at === undefined ? rng.int(from, to) : Math.min(to, from + at));
}

export function fixturesOfDay(seed: number, league: SimLeague, day: number): ScheduledFixture[] {
  const rng = Rng.derive(seed, 'day', league.index, day);
  const plan = league.plan;
  const expected = plan.perDay * weekdayFactor(league, day);
  let count = Math.floor(expected) + (rng.next() < expected - Math.floor(expected) ? 1 : 0);
  count = Math.min(count, MAX_PER_DAY);
  if (count === 0 || league.teams.length < 2) return [];
  const [fromHour, toHour] = plan.hours;
  const slots = Math.max(1, Math.floor(((toHour - fromHour) * 60) / plan.slotMinutes));
  const starts: number[] = [];
  for (let i = 0; i < count; i++) {
    // Staggered: the i-th fixture takes a slot of the i-th equal share of the window.
    const slot =
      plan.stagger !== undefined ? staggeredSlot(rng, i, count, slots, plan.stagger.at) : rng.int(0, slots - 1);
    starts.push(day * DAY_MS + fromHour * 3_600_000 + slot * plan.slotMinutes * 60_000);
  }
  starts.sort((a, b) => a - b);
  const freeAt = new Map<SimTeam, number>();
  const out: ScheduledFixture[] = [];
  for (const startTime of starts) {
    const free = league.teams.filter((t) => (freeAt.get(t) ?? -Infinity) <= startTime);
    if (free.length < 2) continue;
    const home = rng.pick(free);
    const rest = free.filter((t) => t !== home);
    const away = rng.pick(rest);
    freeAt.set(home, startTime + BUSY_MS);
    freeAt.set(away, startTime + BUSY_MS);
    out.push({ eventNum: eventNumber(league.index, day, out.length), home, away, startTime });
  }
  return out;
}
