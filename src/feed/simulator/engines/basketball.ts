// Basketball: possessions of 6-22 s with 0-3 points, four quarters and overtimes; priced by normal approximations.
import { compoundPoissonAbove, normalCdf, poissonAbove } from '../pricing/dist.js';
import { playerProp } from '../pricing/families.js';
import type { FairMarket } from '../pricing/fair.js';
import {
  halfLines,
  pointsMarkets,
  spreadLines,
  type PeriodOutlook,
  type PointsBook,
  type TeamOutlook,
} from '../pricing/points.js';
import { TeamPlayers } from './team-players.js';
import { TimedEngine, type Tick } from './timed.js';
import type { EngineContext, MarketDepth } from './types.js';
import type { PlayerStats } from '../../messages.js';

/** Mean game-clock seconds of a possession (drawn 6-22 s), unless the league's format sets its pace. */
const MEAN_POSSESSION = 14;
/**
 * Rating gap to log points-per-possession ratio. The rubber band keeps the engine's margins within
 * ~9.8 points of the expected one (NBA closing spreads: ~12), so at 0.035 a book that prices the
 * engine right (in-play calibration) showed favourites shorter than real books do (22% of NBA
 * books with a favourite at 1.15 or shorter, band 3-20%); 0.028 scales the gaps by 9.8/12.
 */
const RATING_EFFECT = 0.028;
const BASE_PPP = 1.2;
/** Change of scoring rate per point of lead (negative when trailing). */
const RUBBER_BAND = 0.006;
/** Variance of points per possession over its mean (a 0/1/2/3 outcome). */
const DISPERSION = 1.3;
/**
 * The same for the margin: a possession's own spread only (2.72 / 1.2 - 1.2 for 0/1/2/3 points at
 * 0.44/0.04/0.40/0.12). How many possessions are left moves both sides alike, so it widens the
 * total (DISPERSION) but not the margin.
 */
const MARGIN_DISPERSION = 1.07;
/** Possessions a period has beyond its length over MEAN_POSSESSION: the last one, cut by the buzzer, scores in full. */
const BUZZER_POSSESSIONS = 0.55;
const USAGE = (pos: string): number => (pos === 'G' ? 1.2 : pos === 'F' ? 1 : 0.9);
const REBOUND = (pos: string): number => (pos === 'C' ? 2.2 : pos === 'F' ? 1.4 : 0.6);
/** Share of missed possessions the shooting side rebounds; share of made 2s and 3s assisted. */
const OFFENSIVE_REBOUND = 0.25;
const ASSISTED = 0.6;
/** Chance a possession scores 1, 2 or 3 points at BASE_PPP (0.04 + 2 x 0.40 + 3 x 0.12 = 1.2). */
const POINT_MIX = [0.04, 0.4, 0.12] as const;
/** Chance a possession scores at BASE_PPP. */
const SCORE_CHANCE = POINT_MIX[0] + POINT_MIX[1] + POINT_MIX[2];
/** Assists per point scored, as played: made 2s and 3s assisted ASSISTED of the time. */
const ASSISTS_PER_POINT = ((POINT_MIX[1] + POINT_MIX[2]) * ASSISTED) / BASE_PPP;
const ASSIST = (pos: string): number => (pos === 'G' ? 2.2 : pos === 'F' ? 0.8 : 0.4);

/** E[min(max(X, -cap), cap)] for X ~ Normal(mean, sd). */
export function cappedMean(mean: number, sd: number, cap: number): number {
  if (sd < 1e-9) return Math.max(-cap, Math.min(cap, mean));
  const a = (-cap - mean) / sd;
  const b = (cap - mean) / sd;
  const pdf = (z: number): number => Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
  const inside = mean * (normalCdf(b) - normalCdf(a)) - sd * (pdf(b) - pdf(a));
  return -cap * normalCdf(a) + cap * (1 - normalCdf(b)) + inside;
}

export class BasketballEngine extends TimedEngine {
  private readonly ppp: [number, number];
  /** Mean seconds of a possession: the league's pace (its format), MEAN_POSSESSION by default. */
  private readonly possessionSeconds: number;
  private possession: 0 | 1 = 0;
  private readonly squads: [TeamPlayers, TeamPlayers];
  private readonly lines: {
    spread: number[];
    total: number[];
    teamTotal: [number[], number[]];
    q: { spread: number; total: number[] };
    half: { spread: number[]; total: number[] };
  };

  constructor(ctx: EngineContext) {
    const q = ctx.league.plan.format?.quarterMinutes ?? 10;
    super(ctx, {
      periods: ['Q1', 'Q2', 'Q3', 'Q4'],
      periodSeconds: q * 60,
      overtime: { names: ['OT1', 'OT2', 'OT3'], seconds: 300, suddenDeath: false },
      breakMs: (i, ot) => (ot ? 120_000 : i === 1 ? 15 * 60_000 : 130_000),
      wallPerGameSecond: 2.2 * 1000,
      countdown: true,
    });
    const diff = (ctx.home.rating - ctx.away.rating) * RATING_EFFECT;
    const format = ctx.league.plan.format;
    const ppp = format?.pointsPerPossession ?? BASE_PPP;
    this.possessionSeconds = format?.possessionSeconds ?? MEAN_POSSESSION;
    this.ppp = [ppp * Math.exp(diff + 0.012), ppp * Math.exp(-diff - 0.012)];
    this.squads = [
      new TeamPlayers(ctx.home, 'home', ['points', 'rebounds', 'assists']),
      new TeamPlayers(ctx.away, 'away', ['points', 'rebounds', 'assists']),
    ];
    this.possession = ctx.rng.chance(0.5) ? 0 : 1;
    const poss = (4 * q * 60) / this.possessionSeconds / 2;
    const margin = (this.ppp[0] - this.ppp[1]) * poss;
    const total = (this.ppp[0] + this.ppp[1]) * poss;
    const tier = ctx.league.tier;
    this.lines = {
      spread: spreadLines(margin, 1, tier === 1 ? 6 : 4),
      total: halfLines(total, 2, tier === 1 ? 6 : 4),
      teamTotal: [halfLines(this.ppp[0] * poss, 3, 2), halfLines(this.ppp[1] * poss, 3, 2)],
      q: { spread: spreadLines(margin / 4, 1, 1)[0]!, total: halfLines(total / 4, 2, 2) },
      half: { spread: spreadLines(margin / 2, 1.5, 2), total: halfLines(total / 2, 3, 2) },
    };
  }

  protected override peekSeconds(): number {
    return this.possessionSeconds;
  }

  protected tick(): Tick {
    const { rng } = this.ctx;
    // 6-22 s at the default pace, stretched to the league's (one draw either way).
    const seconds = Math.min(
      rng.uniform(6, 22) * (this.possessionSeconds / MEAN_POSSESSION),
      this.periodLength() - this.elapsed,
    );
    const side = this.possession;
    // BASE_PPP a possession: 0.04 + 2 x 0.40 + 3 x 0.12. A trailing side plays harder and a leading one eases
    // off (up to 10% either way): without it margins spread wider and overtime is rarer than in the NBA.
    const [h, a] = this.total();
    const lead = side === 0 ? h - a : a - h;
    const k = (this.ppp[side] / BASE_PPP) * (1 - Math.max(-0.1, Math.min(0.1, lead * RUBBER_BAND)));
    let pts = POINT_MIX.map((c) => c * k);
    // Last possession of regulation, trailing by 1-3: the play is drawn up to tie (a three when down 3).
    const lastRegulation = !this.inOvertime && this.periodIndex === this.format.periods.length - 1;
    if (lastRegulation && this.periodLength() - this.elapsed <= 24 && lead < 0 && lead >= -3)
      pts = lead === -3 ? [0, 0.1, 0.36] : [0.05, 0.5, 0.05];
    const x = rng.next();
    const squad = this.squads[side];
    let scored = 0;
    if (x < pts[0]!) scored = 1;
    else if (x < pts[0]! + pts[1]!) scored = 2;
    else if (x < pts[0]! + pts[1]! + pts[2]!) scored = 3;
    if (scored > 0) {
      const shooter = squad.pick(rng, USAGE);
      squad.add(shooter, 'points', scored);
      if (scored > 1 && rng.chance(ASSISTED)) squad.add(squad.pick(rng, ASSIST), 'assists');
      this.score(side === 0 ? 'home' : 'away', scored);
    } else {
      const offensive = rng.chance(OFFENSIVE_REBOUND);
      const reb = this.squads[offensive ? side : side === 0 ? 1 : 0];
      reb.add(reb.pick(rng, REBOUND), 'rebounds');
    }
    this.possession = side === 0 ? 1 : 0;
    return { seconds };
  }

  protected sportData(): Record<string, unknown> {
    return { period: this.currentPeriod(), possession: this.possession === 0 ? 'home' : 'away' };
  }

  private outlook(side: 0 | 1, seconds: number, current: number): TeamOutlook {
    const mean = (seconds / this.possessionSeconds / 2) * this.ppp[side];
    return { current, mean, variance: mean * DISPERSION + 4 };
  }

  /**
   * Both sides' outlook for the rest of the game (overtime included), as the engine plays it: the
   * possessions left (each period's last one, cut short by the buzzer, still scores in full), the
   * rubber band (a trailing side's rate up, the leader's down, by its lead, followed pair of
   * possessions by pair), and the overtime a level score would bring. Priced without them, the
   * book put the home side -4.5 at 0.51 where it covered 0.47, Over at 0.53 where it won 0.59, and a
   * trailing side's comeback at 0.28 where it came back 0.30.
   *
   * The rubber band also ties the sides' scoring together: it pulls the margin back (its spread
   * shrinks as a mean-reverting walk's does) but leaves the total's spread alone. Independent
   * outlooks cannot carry that, so there are two: `margin` (each side's variance shrunk) prices the
   * winner and the handicaps, `total` the totals.
   */
  private gameOutlook(): { margin: [TeamOutlook, TeamOutlook]; total: [TeamOutlook, TeamOutlook]; pairs: number } {
    const [h, a] = this.total();
    const left = this.remainingRegulationSeconds();
    // In overtime, or in the break before one (a level score), the overtime is still to play: without
    // it every market was priced as if the game had ended level (every prop not yet won at Under).
    const otLeft = this.overtimeSecondsLeft();
    const seconds = left + otLeft;
    if (seconds <= 0) {
      const done: [TeamOutlook, TeamOutlook] = [this.outlook(0, 0, h), this.outlook(1, 0, a)];
      return { margin: done, total: done, pairs: 0 };
    }
    const periodsLeft = left > 0 ? this.format.periods.length - this.periodIndex : 1;
    const pairs = seconds / this.possessionSeconds / 2 + (BUZZER_POSSESSIONS * periodsLeft) / 2;
    let otPairsExpected = 0;
    const mean: [number, number] = [0, 0];
    let lead = h - a;
    // The band is capped, so it pulls an uncertain lead less than a certain one: its mean over the
    // lead's spread so far (a margin's variance grows by about 2 x 1.2 x DISPERSION a pair).
    const perPair = (this.ppp[0] + this.ppp[1]) * DISPERSION;
    for (let done = 0; done < pairs; done++) {
      const part = Math.min(1, pairs - done);
      const band = RUBBER_BAND * cappedMean(lead, Math.sqrt(perPair * done), 0.1 / RUBBER_BAND);
      const ph = this.ppp[0] * (1 - band) * part;
      const pa = this.ppp[1] * (1 + band) * part;
      mean[0] += ph;
      mean[1] += pa;
      lead += ph - pa;
    }
    // Another overtime, about 5 minutes more for both sides, when what is to play ends level.
    if (this.overtimesAfterNow() > 0) {
      const sd = Math.sqrt((mean[0] + mean[1]) * DISPERSION + 8);
      const tie = Math.exp(-0.5 * (lead / sd) ** 2) / (sd * Math.sqrt(2 * Math.PI));
      const otPairs = this.format.overtime!.seconds / this.possessionSeconds / 2 + BUZZER_POSSESSIONS / 2;
      mean[0] += tie * otPairs * this.ppp[0];
      mean[1] += tie * otPairs * this.ppp[1];
      otPairsExpected = tie * otPairs;
    }
    // Variance of a mean-reverting walk over its free one: (1 - e^(-2cn)) / 2cn for n pairs at pull c.
    // The pull stops at the cap, so it acts only while the lead is under it: c times that share of
    // the walk's settled spread (sd sqrt(perPair / 2c), ~10 points against a cap of ~17).
    const free = (this.ppp[0] + this.ppp[1]) * RUBBER_BAND;
    const cap = 0.1 / RUBBER_BAND;
    const settled = Math.sqrt((perPair * MARGIN_DISPERSION) / DISPERSION / (2 * free));
    const c = free * (2 * normalCdf(cap / settled) - 1);
    const shrink = (1 - Math.exp(-2 * c * pairs)) / (2 * c * pairs);
    const margin = (current: number, m: number): TeamOutlook => ({
      current,
      mean: m,
      variance: (m * MARGIN_DISPERSION + 4) * shrink,
    });
    const total = (current: number, m: number): TeamOutlook => ({ current, mean: m, variance: m * DISPERSION + 4 });
    return {
      margin: [margin(h, mean[0]), margin(a, mean[1])],
      total: [total(h, mean[0]), total(a, mean[1])],
      pairs: pairs + otPairsExpected,
    };
  }

  markets(depth: MarketDepth): FairMarket[] {
    const tier = this.ctx.league.tier;
    const full = depth === 'full';
    const periods: PeriodOutlook[] = [];
    if (full) {
      for (let i = 0; i < 4; i++) {
        const [ph, pa] = this.periodPoints(i);
        const rem = this.remainingInPeriod(i);
        periods.push({
          code: `q${i + 1}`,
          name: `Quarter ${i + 1}`,
          home: this.outlook(0, rem, ph),
          away: this.outlook(1, rem, pa),
          spreadLines: [this.lines.q.spread],
          totalLines: this.lines.q.total,
          threeWay: true,
        });
      }
      const halves: Array<[string, string, number]> = [
        ['1h', '1st Half', 0],
        ['2h', '2nd Half', 2],
      ];
      for (const [code, name, first] of halves) {
        const q1 = this.periodPoints(first);
        const q2 = this.periodPoints(first + 1);
        const rem = this.remainingInPeriod(first) + this.remainingInPeriod(first + 1);
        periods.push({
          code,
          name,
          home: this.outlook(0, rem, q1[0] + q2[0]),
          away: this.outlook(1, rem, q1[1] + q2[1]),
          spreadLines: this.lines.half.spread,
          totalLines: this.lines.half.total,
          threeWay: true,
        });
      }
    }
    const outlook = this.gameOutlook();
    const narrow = !full || tier >= 3;
    const book: PointsBook = {
      names: this.ctx.names,
      home: outlook.total[0],
      away: outlook.total[1],
      hasDraw: false,
      tieHome: 0.5 + (this.ppp[0] - this.ppp[1]) * 2,
      spreadLines: narrow
        ? this.lines.spread.slice(
            Math.floor(this.lines.spread.length / 2) - 1,
            Math.floor(this.lines.spread.length / 2) + 2,
          )
        : this.lines.spread,
      totalLines: narrow
        ? this.lines.total.slice(
            Math.floor(this.lines.total.length / 2) - 1,
            Math.floor(this.lines.total.length / 2) + 2,
          )
        : this.lines.total,
      teamTotalLines: full ? this.lines.teamTotal : [[], []],
      oddEven: full,
      periods: tier >= 3 ? periods.filter((p) => p.code === 'q1' || p.code === '1h') : periods,
      totalTitle: 'Total Points',
    };
    // The winner and the full-game handicaps from the margin's outlook, everything else from the total's.
    const byMargin = new Map(
      pointsMarkets({
        ...book,
        home: outlook.margin[0],
        away: outlook.margin[1],
        totalLines: [],
        teamTotalLines: [[], []],
        oddEven: false,
        periods: [],
      }).map((m) => [m.key, m]),
    );
    const markets = pointsMarkets(book).map((m) => byMargin.get(m.key) ?? m);
    if (full && tier === 1) markets.push(...this.props(outlook.total, outlook.pairs));
    return markets;
  }

  /**
   * Points, rebounds and assists of the top four of each side, from the game's outlook as the book
   * prices the sides (`sides`: each side's points to come, with the buzzer's possessions, the rubber
   * band and the overtime a level score brings) and the possessions each side has left (`pairs`).
   * Priced on the regulation clock alone, the props missed 2% of the possessions (96.2 a side
   * played, 94.3 priced: 1,000 seeded tier-1 games, seed 11).
   */
  private props(sides: readonly [TeamOutlook, TeamOutlook], pairs: number): FairMarket[] {
    const out: FairMarket[] = [];
    // As the engine plays a possession: a miss (the chance of no score) is rebounded by the
    // shooting side a quarter of the time, by the defence the rest.
    const miss = (s: 0 | 1): number => Math.max(0, 1 - (SCORE_CHANCE * this.ppp[s]) / BASE_PPP);
    for (const side of [0, 1] as const) {
      const squad = this.squads[side];
      const other = side === 0 ? 1 : 0;
      const reboundsPerPossession = OFFENSIVE_REBOUND * miss(side) + (1 - OFFENSIVE_REBOUND) * miss(other);
      for (const p of squad.top(4, USAGE)) {
        const pts = sides[side].mean * squad.share(p, USAGE);
        const reb = pairs * reboundsPerPossession * squad.share(p, REBOUND);
        const ast = sides[side].mean * ASSISTS_PER_POINT * squad.share(p, ASSIST);
        const pLine =
          Math.floor(
            ((4 * this.format.periodSeconds) / this.possessionSeconds / 2) * this.ppp[side] * squad.share(p, USAGE),
          ) + 0.5;
        const rLine =
          Math.floor(
            ((4 * this.format.periodSeconds) / this.possessionSeconds / 2) *
              reboundsPerPossession *
              squad.share(p, REBOUND),
          ) + 0.5;
        const aLine =
          Math.floor(
            ((4 * this.format.periodSeconds) / this.possessionSeconds / 2) *
              this.ppp[side] *
              ASSISTS_PER_POINT *
              squad.share(p, ASSIST),
          ) + 0.5;
        const c = p.counters;
        // Points come in 1s, 2s and 3s in the engine's mix: a Poisson on baskets (points / 2.2, its
        // line rounded down to whole baskets) priced the Over 0.467 where it went 0.498 (600 games).
        const perPoint = pts / BASE_PPP;
        out.push(
          playerProp(
            'points',
            'Points',
            p.player.id,
            p.player.name,
            pLine,
            compoundPoissonAbove(
              POINT_MIX.map((c) => c * perPoint),
              pLine - (c.points ?? 0),
            ),
            c.points ?? 0,
            p.side,
          ),
        );
        out.push(
          playerProp(
            'rebounds',
            'Rebounds',
            p.player.id,
            p.player.name,
            rLine,
            poissonAbove(reb, rLine - (c.rebounds ?? 0)),
            c.rebounds ?? 0,
            p.side,
          ),
        );
        out.push(
          playerProp(
            'assists',
            'Assists',
            p.player.id,
            p.player.name,
            aLine,
            poissonAbove(ast, aLine - (c.assists ?? 0)),
            c.assists ?? 0,
            p.side,
          ),
        );
      }
    }
    return out;
  }

  stats(): PlayerStats[] {
    return [...this.squads[0].lines(), ...this.squads[1].lines()];
  }
}
