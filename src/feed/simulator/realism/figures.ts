// Realism figures: pure measurements over the feed messages a client receives (finals, prematch books, live samples).
import type { FeedMessage } from '../../messages.js';

/** Prices at or beyond these are "at the bounds": no real book offers them. */
export const MIN_PRICE = 1.01;
export const MAX_PRICE = 1000;

/** Margin (total points, runs, goals) from which a final counts as "decided by a big margin", per sport. */
export const BIG_MARGIN: Readonly<Record<string, number>> = {
  soccer: 4,
  baseball: 9,
  basketball: 30,
  american_football: 28,
  ice_hockey: 5,
  handball: 12,
  rugby: 40,
};

/** Sports whose totals markets count the games/points inside sets (period scores), not the match score. */
const SET_SPORTS = new Set(['tennis', 'volleyball', 'table_tennis']);
/** Sports whose match score is the points a totals market counts. */
const POINT_SPORTS = new Set([
  'soccer',
  'basketball',
  'ice_hockey',
  'american_football',
  'baseball',
  'handball',
  'rugby',
  'tennis',
  'volleyball',
  'table_tennis',
]);

interface Outcome {
  market: number;
  code: string;
  odds: number;
  locked: boolean;
}

interface EventBook {
  sport: string;
  tier: number;
  /** The league's name (a league with its own references, `LEAGUE_TALLIES`, is tallied apart too). */
  league: string;
  status: string;
  /** Kick-off, epoch ms: a book published at or after it is not a prematch book. */
  startMs: number;
  keys: Map<number, string>;
  outcomes: Map<number, Outcome>;
  /** Main market id (1x2, else moneyline) and its prices when first published prematch. */
  main: number | null;
  firstMain: Map<number, number> | null;
  mainMoved: boolean;
  score: { home: number; away: number };
  period: string;
  periodScores: Map<string, { home: number; away: number }>;
  /** Outcomes offered and not locked (kept up to date so each message can tell if any is open). */
  unlocked: number;
  /** The time of the last message about the event: the stretch since then is weighed when the next one comes. */
  lastMs: number | null;
}

/** Counters of one sport; ratios are derived by `figuresOf`. */
export interface SportTally {
  finals: number;
  home: number;
  draw: number;
  away: number;
  points: number;
  /** Sum of each final's total squared (the spread of points per game). */
  pointsSq: number;
  nilNil: number;
  bigMargin: number;
  overtime: number;
  shootout: number;
  straightSets: number;
  sets: number;
  tieBreakSets: number;
  /** Series (best of 3 and more) and how many of them went the full distance. */
  series: number;
  deciders: number;
  maps: number;
  books: number;
  overround: number;
  /** Books whose main market's overround is outside OVERROUND_RANGE. */
  overroundOut: number;
  favUnder105: number;
  favUnder115: number;
  booksKickedOff: number;
  booksMoved: number;
  liveSamples: number;
  /** Live time and the part of it with no open selection, weighed from message to message. */
  liveMs: number;
  noOpenMs: number;
  openMarkets: number;
  decidedOpen: number;
  offeredPrices: number;
  boundPrices: number;
}

function emptyTally(): SportTally {
  return {
    finals: 0,
    home: 0,
    draw: 0,
    away: 0,
    points: 0,
    pointsSq: 0,
    nilNil: 0,
    bigMargin: 0,
    overtime: 0,
    shootout: 0,
    straightSets: 0,
    sets: 0,
    tieBreakSets: 0,
    series: 0,
    deciders: 0,
    maps: 0,
    books: 0,
    overround: 0,
    overroundOut: 0,
    favUnder105: 0,
    favUnder115: 0,
    booksKickedOff: 0,
    booksMoved: 0,
    liveSamples: 0,
    liveMs: 0,
    noOpenMs: 0,
    openMarkets: 0,
    decidedOpen: 0,
    offeredPrices: 0,
    boundPrices: 0,
  };
}

/** A main market's overround no real book leaves: under 1% (near fair) or over 12%. */
export const OVERROUND_RANGE: readonly [number, number] = [0.01, 0.12];

/** Leagues with references of their own: tallied apart as well (`basketball NBA`). */
export const LEAGUE_TALLIES: Readonly<Record<string, readonly string[]>> = { basketball: ['NBA'] };

const LIVE = new Set(['live']);
const PRE = new Set(['prematch', 'delayed']);

/** Folds feed messages into per-sport tallies; `sample()` takes a snapshot of every live event. */
export class RealismCollector {
  private readonly events = new Map<string, EventBook>();
  readonly tallies = new Map<string, SportTally>();

  /** `byTier`: tally each league tier apart (`soccer t1`), to calibrate strength spreads per tier. */
  constructor(private readonly byTier = false) {}

  private tallyOf(key: string): SportTally {
    let t = this.tallies.get(key);
    if (t === undefined) this.tallies.set(key, (t = emptyTally()));
    return t;
  }

  /** The tallies an event counts in: its sport's (or tier's), and its league's when it has references of its own. */
  private tally(e: EventBook): SportTally[] {
    const out = [this.tallyOf(this.byTier ? `${e.sport} t${e.tier}` : e.sport)];
    if (LEAGUE_TALLIES[e.sport]?.includes(e.league) === true) out.push(this.tallyOf(`${e.sport} ${e.league}`));
    return out;
  }

  add(messages: Iterable<FeedMessage>): void {
    for (const m of messages) this.one(m);
  }

  private one(m: FeedMessage): void {
    if (m.type === 'fixture') {
      if (!this.events.has(m.event_id))
        this.events.set(m.event_id, {
          sport: m.sport,
          tier: m.league.tier ?? 3,
          league: m.league.name,
          status: 'prematch',
          startMs: Date.parse(m.start_time),
          keys: new Map(),
          outcomes: new Map(),
          main: null,
          firstMain: null,
          mainMoved: false,
          score: { home: 0, away: 0 },
          period: '',
          periodScores: new Map(),
          unlocked: 0,
          lastMs: null,
        });
      return;
    }
    if (!('event_id' in m)) return;
    const e = this.events.get(m.event_id);
    if (e === undefined) return;
    this.weigh(e, m.ts);
    switch (m.type) {
      case 'markets':
        for (const mk of m.markets) {
          e.keys.set(mk.market_id, mk.key);
          for (const o of mk.outcomes) {
            const was = e.outcomes.get(o.selection_id);
            if (was !== undefined && !was.locked) e.unlocked--;
            if (o.is_locked !== true) e.unlocked++;
            e.outcomes.set(o.selection_id, {
              market: mk.market_id,
              code: o.code,
              odds: o.odds,
              locked: o.is_locked ?? false,
            });
          }
          if (m.ts === undefined || Date.parse(m.ts) < e.startMs) this.noteMain(e, mk.market_id, mk.key);
        }
        return;
      case 'odds':
        for (const c of m.changes) {
          const o = e.outcomes.get(c.selection_id);
          if (o === undefined) continue;
          if (c.odds !== undefined && c.odds !== o.odds && o.market === e.main && PRE.has(e.status)) e.mainMoved = true;
          if (c.odds !== undefined) o.odds = c.odds;
          if (c.is_locked !== undefined && c.is_locked !== o.locked) {
            e.unlocked += c.is_locked ? -1 : 1;
            o.locked = c.is_locked;
          }
        }
        return;
      case 'remove_markets': {
        const gone = m.all === true ? null : new Set(m.market_ids ?? []);
        for (const [id, o] of e.outcomes) {
          if (gone !== null && !gone.has(o.market)) continue;
          if (!o.locked) e.unlocked--;
          e.outcomes.delete(id);
        }
        for (const id of [...e.keys.keys()]) if (gone === null || gone.has(id)) e.keys.delete(id);
        return;
      }
      case 'status':
        if (LIVE.has(m.status) && PRE.has(e.status) && e.firstMain !== null) {
          for (const t of this.tally(e)) {
            t.booksKickedOff++;
            if (e.mainMoved) t.booksMoved++;
          }
        }
        e.status = m.status;
        return;
      case 'score':
        e.score = m.score;
        if (m.period !== undefined) e.period = m.period;
        for (const p of m.period_scores ?? []) e.periodScores.set(p.period, { home: p.home, away: p.away });
        return;
      case 'result':
        if (m.status === 'ended') this.final(e, m.score, m.period_scores ?? [], m.winner);
        this.events.delete(m.event_id);
        return;
      default:
        return;
    }
  }

  /**
   * The stretch since the event's last message, while live: its length is live time, and time with
   * nothing open when no selection was. Weighed by time rather than counted at the report's
   * once-a-minute samples, which fell on the engines' minute steps and saw every lock taken there.
   */
  private weigh(e: EventBook, ts: string | undefined): void {
    if (ts === undefined) return;
    const at = Date.parse(ts);
    if (e.status === 'live' && e.lastMs !== null && at > e.lastMs) {
      for (const t of this.tally(e)) {
        t.liveMs += at - e.lastMs;
        if (e.unlocked <= 0) t.noOpenMs += at - e.lastMs;
      }
    }
    e.lastMs = at;
  }

  /** The first prematch publication of the main market: overround and favourite price. */
  private noteMain(e: EventBook, marketId: number, key: string): void {
    if (e.firstMain !== null || !PRE.has(e.status)) return;
    const main = key === '1x2' || (key === 'moneyline' && ![...e.keys.values()].includes('1x2'));
    if (!main) return;
    const prices = new Map<number, number>();
    for (const [id, o] of e.outcomes) if (o.market === marketId) prices.set(id, o.odds);
    if (prices.size < 2) return;
    e.main = marketId;
    e.firstMain = prices;
    const odds = [...prices.values()];
    const fav = Math.min(...odds);
    const overround = odds.reduce((s, x) => s + 1 / x, 0) - 1;
    for (const t of this.tally(e)) {
      t.books++;
      t.overround += overround;
      if (overround < OVERROUND_RANGE[0] || overround > OVERROUND_RANGE[1]) t.overroundOut++;
      if (fav <= 1.05) t.favUnder105++;
      if (fav <= 1.15) t.favUnder115++;
    }
  }

  private final(
    e: EventBook,
    score: { home: number; away: number },
    periods: ReadonlyArray<{ period: string; home: number; away: number }>,
    winner: 'home' | 'away' | null | undefined,
  ): void {
    for (const t of this.tally(e)) this.finalInto(t, e, score, periods, winner);
  }

  private finalInto(
    t: SportTally,
    e: EventBook,
    score: { home: number; away: number },
    periods: ReadonlyArray<{ period: string; home: number; away: number }>,
    winner: 'home' | 'away' | null | undefined,
  ): void {
    t.finals++;
    const side = winner ?? (score.home > score.away ? 'home' : score.away > score.home ? 'away' : null);
    if (side === 'home') t.home++;
    else if (side === 'away') t.away++;
    else t.draw++;
    t.points += score.home + score.away;
    t.pointsSq += (score.home + score.away) ** 2;
    if (score.home === 0 && score.away === 0) t.nilNil++;
    const big = BIG_MARGIN[e.sport];
    if (big !== undefined && Math.abs(score.home - score.away) >= big) t.bigMargin++;
    t.overtime += wentToOvertime(e.sport, periods) ? 1 : 0;
    if (e.sport === 'ice_hockey' && (score.home === score.away || periods.some((p) => p.period === 'SO'))) t.shootout++;
    if (e.sport === 'tennis') {
      if (Math.min(score.home, score.away) === 0) t.straightSets++;
      for (const p of periods) {
        t.sets++;
        if (Math.max(p.home, p.away) === 7 && Math.min(p.home, p.away) === 6) t.tieBreakSets++;
      }
    }
    const wins = Math.max(score.home, score.away);
    if (ESPORTS.has(e.sport) && wins >= 2) {
      t.series++;
      t.maps += score.home + score.away;
      if (Math.min(score.home, score.away) === wins - 1) t.deciders++;
    }
  }

  /** One look at every live event, as a client polling the book would have it now. */
  sample(): void {
    for (const e of this.events.values()) {
      if (e.status !== 'live') continue;
      for (const t of this.tally(e)) this.sampleInto(t, e);
    }
  }

  private sampleInto(t: SportTally, e: EventBook): void {
    t.liveSamples++;
    const open = new Map<number, Outcome[]>();
    for (const o of e.outcomes.values()) {
      if (o.locked) continue;
      t.offeredPrices++;
      if (o.odds <= MIN_PRICE || o.odds >= MAX_PRICE) t.boundPrices++;
      const list = open.get(o.market);
      if (list === undefined) open.set(o.market, [o]);
      else list.push(o);
    }
    for (const [marketId, outcomes] of open) {
      t.openMarkets++;
      const key = e.keys.get(marketId);
      if (key !== undefined && isDecided(e.sport, key, outcomes, e)) t.decidedOpen++;
    }
  }
}

const ESPORTS = new Set(['cs2', 'valorant', 'dota2', 'lol']);

/** Overtime / extra innings / extra ends: a period beyond regulation, or a regulation that ended level. */
export function wentToOvertime(
  sport: string,
  periods: ReadonlyArray<{ period: string; home: number; away: number }>,
): boolean {
  if (sport === 'baseball') return periods.some((p) => /^I(\d+)$/.test(p.period) && Number(p.period.slice(1)) > 9);
  if (sport === 'basketball' || sport === 'american_football' || sport === 'ice_hockey') {
    if (periods.some((p) => /^(OT|SO)/.test(p.period))) return true;
    const reg = periods.filter((p) => /^[QP]\d$/.test(p.period));
    const h = reg.reduce((s, p) => s + p.home, 0);
    const a = reg.reduce((s, p) => s + p.away, 0);
    return reg.length > 0 && h === a;
  }
  return false;
}

/** Where a period token of a market key (`q1`, `1h`, `s2`, `p3`, `i1`) stands in the game: [kind, number]. */
function periodRank(token: string): number | null {
  const t = token.toLowerCase();
  let m = /^(?:q|s|p|i|g|m|f|r)(\d+)$/.exec(t);
  if (m !== null) return Number(m[1]);
  m = /^(\d)h$/.exec(t);
  if (m !== null) return Number(m[1]);
  if (/^ot\d*$/.test(t)) return 99;
  return null;
}

/** Whether the current period is already past the market's period (its outcome is known). */
function periodPast(sport: string, marketPeriod: string, current: string): boolean {
  const mp = marketPeriod.toLowerCase();
  const cur = current.toLowerCase();
  if (cur === '' || cur === 'ht') return mp === '1h' && cur === 'ht' && sport !== 'basketball';
  if (sport === 'basketball' && /^\dh$/.test(mp)) {
    const q = /^q(\d)$/.exec(cur);
    const quarter = q !== null ? Number(q[1]) : /^ot/.test(cur) ? 5 : 0;
    return mp === '1h' ? quarter >= 3 : false;
  }
  const a = periodRank(mp);
  const b = periodRank(cur);
  if (a === null || b === null) return false;
  if (/^\dh$/.test(mp) !== /^\dh$/.test(cur) && b !== 99) return false;
  return b > a;
}

/**
 * Whether an open market's outcome is already decided by the state: a period market open after its
 * period, or a totals / team totals market whose Over has already been passed.
 */
export function isDecided(
  sport: string,
  key: string,
  openOutcomes: ReadonlyArray<{ code: string }>,
  state: {
    score: { home: number; away: number };
    period: string;
    periodScores: ReadonlyMap<string, { home: number; away: number }>;
  },
): boolean {
  const [head = '', lineText] = key.split(':');
  const [family = '', period] = head.split('@');
  if (period !== undefined && periodPast(sport, period, state.period)) return true;
  if (lineText === undefined || !POINT_SPORTS.has(sport)) return false;
  const line = Number(lineText);
  if (!Number.isFinite(line)) return false;
  const overOpen = openOutcomes.some((o) => o.code === 'over');
  if (!overOpen) return false;
  let home: number;
  let away: number;
  if (period !== undefined) {
    const ps = [...state.periodScores].find(([p]) => p.toLowerCase() === period.toLowerCase());
    if (ps === undefined) return false;
    home = ps[1].home;
    away = ps[1].away;
  } else if (SET_SPORTS.has(sport) && line > 10) {
    // A long line counts games or points inside the sets; a short one (3.5) counts sets or games won.
    home = 0;
    away = 0;
    for (const p of state.periodScores.values()) {
      home += p.home;
      away += p.away;
    }
  } else {
    home = state.score.home;
    away = state.score.away;
  }
  if (family === 'totals') return home + away > line;
  if (family === 'team_totals_home') return home > line;
  if (family === 'team_totals_away') return away > line;
  return false;
}

/** The figures of one sport, as ratios (null when the sample holds nothing to measure). */
export interface SportFigures {
  finals: number;
  /** Best-of series among the finals (the denominator of deciderShare and mapsPerSeries). */
  series: number;
  /** Sets played (the denominator of tieBreakSetShare). */
  sets: number;
  homeShare: number | null;
  drawShare: number | null;
  awayShare: number | null;
  pointsPerGame: number | null;
  /** Standard deviation of a final's total (null below two finals): the standard error of pointsPerGame. */
  pointsSd: number | null;
  nilNilShare: number | null;
  bigMarginShare: number | null;
  overtimeShare: number | null;
  shootoutShare: number | null;
  straightSetsShare: number | null;
  tieBreakSetShare: number | null;
  deciderShare: number | null;
  mapsPerSeries: number | null;
  books: number;
  overround: number | null;
  /** Share of prematch main books with an overround outside OVERROUND_RANGE (1-12%). */
  overroundOutShare: number | null;
  favUnder105: number | null;
  favUnder115: number | null;
  mainMovedShare: number | null;
  liveSamples: number;
  noOpenShare: number | null;
  decidedOpenShare: number | null;
  boundPriceShare: number | null;
}

const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

export function figuresOf(t: SportTally): SportFigures {
  return {
    finals: t.finals,
    series: t.series,
    sets: t.sets,
    homeShare: ratio(t.home, t.finals),
    drawShare: ratio(t.draw, t.finals),
    awayShare: ratio(t.away, t.finals),
    pointsPerGame: ratio(t.points, t.finals),
    pointsSd:
      t.finals < 2 ? null : Math.sqrt(Math.max(0, (t.pointsSq - (t.points * t.points) / t.finals) / (t.finals - 1))),
    nilNilShare: ratio(t.nilNil, t.finals),
    bigMarginShare: ratio(t.bigMargin, t.finals),
    overtimeShare: ratio(t.overtime, t.finals),
    shootoutShare: ratio(t.shootout, t.finals),
    straightSetsShare: ratio(t.straightSets, t.finals),
    tieBreakSetShare: ratio(t.tieBreakSets, t.sets),
    deciderShare: ratio(t.deciders, t.series),
    mapsPerSeries: ratio(t.maps, t.series),
    books: t.books,
    overround: ratio(t.overround, t.books),
    overroundOutShare: ratio(t.overroundOut, t.books),
    favUnder105: ratio(t.favUnder105, t.books),
    favUnder115: ratio(t.favUnder115, t.books),
    mainMovedShare: ratio(t.booksMoved, t.booksKickedOff),
    liveSamples: t.liveSamples,
    noOpenShare: ratio(t.noOpenMs, t.liveMs),
    decidedOpenShare: ratio(t.decidedOpen, t.openMarkets),
    boundPriceShare: ratio(t.boundPrices, t.offeredPrices),
  };
}
