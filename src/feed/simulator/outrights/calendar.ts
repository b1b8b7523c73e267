// When each edition of a league's tournament is published, played and settled, and its id and name.
import { slugify } from '../names.js';
import { Rng } from '../rng.js';
import type { SimLeague } from '../world.js';
import { outrightPlanOf, type OutrightPlan } from './plans.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The recurring tournament of one league: edition k starts at phase + k × period. */
export interface Series {
  league: SimLeague;
  plan: OutrightPlan;
  /** Start of edition 0 (epoch ms, a whole hour): each league has its own day in the period. */
  phaseMs: number;
  /** Publication ahead of the start, so the next edition is listed before the current one ends. */
  leadMs: number;
  /** League name in tournament names, with the country when the name exists twice in the world. */
  displayName: string;
  /** `t-<sport>-<league slug>-`: the tournament id without the start date. */
  idPrefix: string;
}

export interface EditionTimes {
  publishAt: number;
  start: number;
  /** The results are published at this instant. */
  end: number;
  /** When each round (matchday, knockout round) is played. */
  rounds: number[];
}

/** How long editions overlap: the next one is published this long before the current one ends. */
function overlapMs(durationMs: number): number {
  return Math.min(7 * DAY, Math.max(6 * HOUR, Math.round(durationMs / 2 / HOUR) * HOUR));
}

/** The tournament series of the given leagues; `all` (the whole world) decides which names need a country. */
export function buildSeries(seed: number, leagues: readonly SimLeague[], all: readonly SimLeague[]): Series[] {
  const nameCount = new Map<string, number>();
  for (const l of all) nameCount.set(l.name, (nameCount.get(l.name) ?? 0) + 1);
  // A league without a table (friendlies) runs no tournament.
  return leagues
    .filter((league) => league.plan.tournament !== false)
    .map((league) => {
      const plan = outrightPlanOf(league);
      const periodDays = Math.round(plan.periodMs / DAY);
      const rng = Rng.derive(seed, 'outright-series', league.index);
      const phaseMs = rng.int(0, periodDays - 1) * DAY + plan.startHour * HOUR;
      const sportSlug = slugify(league.sport);
      const slug = league.slug.startsWith(`${sportSlug}-`) ? league.slug.slice(sportSlug.length + 1) : league.slug;
      return {
        league,
        plan,
        phaseMs,
        leadMs: plan.periodMs - plan.durationMs + overlapMs(plan.durationMs),
        displayName: (nameCount.get(league.name) ?? 0) > 1 ? `${league.name} (${league.country})` : league.name,
        idPrefix: `t-${sportSlug}-${slug}-`,
      };
    });
}

export function editionStart(s: Series, k: number): number {
  return s.phaseMs + k * s.plan.periodMs;
}

export function editionTimes(s: Series, k: number): EditionTimes {
  const start = editionStart(s, k);
  const { durationMs, rounds } = s.plan;
  return {
    publishAt: start - s.leadMs,
    start,
    end: start + durationMs,
    rounds: Array.from(
      { length: rounds },
      (_, j) => start + Math.floor(((j + 0.5) * durationMs) / rounds / MINUTE) * MINUTE,
    ),
  };
}

/** Editions listed at `t`: published and not yet settled (an edition ending exactly at `t` counts as over). */
export function openEditions(s: Series, t: number): number[] {
  const { periodMs, durationMs } = s.plan;
  const first = Math.max(0, Math.floor((t - durationMs - s.phaseMs) / periodMs) + 1);
  const last = Math.floor((t + s.leadMs - s.phaseMs) / periodMs);
  const out: number[] = [];
  for (let k = first; k <= last; k++) {
    const e = editionTimes(s, k);
    if (e.publishAt <= t && t < e.end) out.push(k);
  }
  return out;
}

/** The first edition published strictly after `t`. */
export function nextEditionAfter(s: Series, t: number): number {
  let k = Math.max(0, Math.floor((t + s.leadMs - s.phaseMs) / s.plan.periodMs));
  while (editionTimes(s, k).publishAt <= t) k++;
  return k;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export function tournamentIdOf(s: Series, k: number): string {
  const d = new Date(editionStart(s, k));
  return `${s.idPrefix}${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
}

/**
 * The season a league's edition belongs to, as the real competition writes it: "2026-27" for an
 * August-May league (a season opening from July on belongs to that year's season, one opening
 * January-June to the season that began the year before), "2026" for a calendar-year league.
 */
export function seasonLabel(seasonYears: 'split' | 'calendar', start: number): string {
  const d = new Date(start);
  const year = d.getUTCFullYear();
  if (seasonYears === 'calendar') return String(year);
  const opening = d.getUTCMonth() >= 6 ? year : year - 1;
  return `${opening}-${pad((opening + 1) % 100)}`;
}

/**
 * "Premier League 2026-27 (Nov-Dec)", "MLB 2026 (Apr-May)", "Pro Tour 7 Mar 2026", "Fight Night
 * Boxing Prizefighter 7 Mar 2026". The simulated league season is compressed into weeks, so a real
 * season holds several of them: the months they are played in tell them apart (a period of 28 days
 * or more never starts and ends two editions in the same months).
 */
export function tournamentNameOf(s: Series, k: number): string {
  const start = editionStart(s, k);
  const d = new Date(start);
  const year = d.getUTCFullYear();
  let label: string;
  if (s.plan.label === 'season') {
    const last = new Date(start + s.plan.durationMs - 1);
    const from = MONTHS[d.getUTCMonth()]!;
    const to = MONTHS[last.getUTCMonth()]!;
    label = `${seasonLabel(s.plan.seasonYears, start)} (${from === to ? from : `${from}-${to}`})`;
  } else {
    label = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]!} ${year}`;
  }
  return [s.displayName, s.plan.title, label].filter((x) => x !== null).join(' ');
}

/** The edition a tournament id names, if it is one of these series. */
export function editionOfId(series: readonly Series[], id: string): { series: Series; k: number } | null {
  for (const s of series) {
    if (!id.startsWith(s.idPrefix)) continue;
    const m = /^(\d{4})(\d{2})(\d{2})$/.exec(id.slice(s.idPrefix.length));
    if (m === null) continue;
    const day = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    const k = Math.round((day + s.plan.startHour * HOUR - s.phaseMs) / s.plan.periodMs);
    if (k >= 0 && tournamentIdOf(s, k) === id) return { series: s, k };
  }
  return null;
}
