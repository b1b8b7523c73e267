// Baseball: plate appearances with bases and outs, nine innings (extra innings with a runner on second), walk-offs.
import { ASIAN_HANDICAP, TOTALS } from '../../../domain/families/index.js';
import type { PeriodScore } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import { Dist, Grid } from '../pricing/dist.js';
import { asianHandicap, matchResult, moneyline, oddEven, playerProp, teamTotals, totals } from '../pricing/families.js';
import type { FairMarket } from '../pricing/fair.js';
import {
  BaseballOutlook,
  FIRST_SCORES_ON_DOUBLE,
  PA_RATES,
  SAC_FLY,
  SECOND_SCORES_ON_SINGLE,
  type RunsToCome,
} from './baseball-outlook.js';
import { TeamPlayers, type TrackedPlayer } from './team-players.js';
import type { EngineContext, FinalResult, MarketDepth, MatchEngine, Snapshot, StepResult } from './types.js';

/** Hits per plate appearance at k = 1 (single, double, triple, home run of PA_RATES). */
const HITS_PER_PA = PA_RATES[1] + PA_RATES[2] + PA_RATES[3] + PA_RATES[4];
/**
 * A batter's hits in a game spread less than a Poisson of their mean (a few plate appearances
 * each, and more of them when the side hits): variance / mean measured on the engine, 0.836 over
 * 54,000 batter-games (3,000 tier-1 games, seed 11). A count with mean m and that index is none
 * with probability D^(m / (1 - D)) (a binomial's, at any n): 0.344, as the engine plays it, where
 * a Poisson says 0.376 (the Over 0.5 hits prop was priced 0.628 and went over 0.660).
 */
export const HITS_DISPERSION = 0.836;

const PA_MS = 110_000;
const HALF_BREAK_MS = 90_000;
/** Spread of a starting pitcher's effect on the other side's batting (log scale). */
const PITCHER_SD = 0.05;

export class BaseballEngine implements MatchEngine {
  private readonly innings: number;
  private readonly batting: [number, number];
  private inning = 1;
  private top = true;
  private outs = 0;
  private bases: [boolean, boolean, boolean] = [false, false, false];
  private readonly runs: Array<[number, number]> = [[0, 0]];
  private readonly hits: [number, number] = [0, 0];
  private readonly order: [number, number] = [0, 0];
  private between = false;
  /** The home side led after the top of the last inning and never batted in its bottom half. */
  private homeSkipped = false;
  private over = false;
  private readonly squads: [TeamPlayers, TeamPlayers];
  /** Prices the runs to come from the same plate appearance the game plays (baseball-outlook.ts). */
  private readonly outlook: BaseballOutlook;

  constructor(private readonly ctx: EngineContext) {
    this.innings = ctx.league.plan.format?.innings ?? 9;
    // Per-PA rates scale with k squared-ish in runs: 0.02 keeps a 2-sigma rating gap near +/-1 run a game
    // (real MLB team run differentials stay within about +/-1.5 a game).
    const diff = (ctx.home.rating - ctx.away.rating) * 0.02;
    // Each side's starting pitcher is better or worse on the day: game-to-game spread in runs that
    // team ratings alone miss (without it, too many games are level after nine).
    const pitcherHome = ctx.rng.normal(0, PITCHER_SD);
    const pitcherAway = ctx.rng.normal(0, PITCHER_SD);
    this.batting = [Math.exp(diff + 0.01 + pitcherAway), Math.exp(-diff - 0.01 + pitcherHome)];
    const stats = ['hits', 'home_runs', 'runs', 'rbi', 'walks'];
    this.squads = [new TeamPlayers(ctx.home, 'home', stats), new TeamPlayers(ctx.away, 'away', stats)];
    this.outlook = new BaseballOutlook(
      [this.batting[0] / this.batting[1], this.batting[1] / this.batting[0]],
      this.innings,
    );
  }

  expectedDurationMs(): number {
    return this.innings * 2 * (4.3 * PA_MS + HALF_BREAK_MS);
  }

  private batters(side: 0 | 1): TrackedPlayer[] {
    return this.squads[side].players.filter((p) => p.player.position === 'B');
  }

  private total(): [number, number] {
    return this.runs.reduce<[number, number]>((s, r) => [s[0] + r[0], s[1] + r[1]], [0, 0]);
  }

  begin(): number {
    return PA_MS;
  }

  step(): StepResult {
    if (this.over) return { next: 60_000 };
    if (this.between) {
      this.between = false;
      return { next: PA_MS };
    }
    return this.plateAppearance();
  }

  private plateAppearance(): StepResult {
    const { rng } = this.ctx;
    const side: 0 | 1 = this.top ? 1 : 0;
    const k = this.batting[side] / this.batting[side === 0 ? 1 : 0];
    const lineup = this.batters(side);
    const batter = lineup[this.order[side] % lineup.length]!;
    this.order[side]++;
    const squad = this.squads[side];
    const probs = PA_RATES.map((r) => r * k);
    const x = rng.next();
    let outcome = -1;
    let acc = 0;
    for (let i = 0; i < probs.length; i++) {
      acc += probs[i]!;
      if (x < acc) {
        outcome = i;
        break;
      }
    }
    let scored = 0;
    const b = this.bases;
    const score = (n: number): void => {
      scored += n;
    };
    switch (outcome) {
      case 0: // walk: forced runners only
        squad.add(batter, 'walks');
        if (b[0] && b[1] && b[2]) score(1);
        this.bases = [true, b[0] || b[1] ? true : b[1], b[0] && b[1] ? true : b[2]];
        break;
      case 1: {
        // single
        squad.add(batter, 'hits');
        this.hits[side]++;
        if (b[2]) score(1);
        const secondScores = b[1] && rng.chance(SECOND_SCORES_ON_SINGLE);
        if (secondScores) score(1);
        this.bases = [true, b[0], b[1] && !secondScores];
        break;
      }
      case 2: {
        // double
        squad.add(batter, 'hits');
        this.hits[side]++;
        score((b[1] ? 1 : 0) + (b[2] ? 1 : 0));
        const firstScores = b[0] && rng.chance(FIRST_SCORES_ON_DOUBLE);
        if (firstScores) score(1);
        this.bases = [false, true, b[0] && !firstScores];
        break;
      }
      case 3: // triple
        squad.add(batter, 'hits');
        this.hits[side]++;
        score((b[0] ? 1 : 0) + (b[1] ? 1 : 0) + (b[2] ? 1 : 0));
        this.bases = [false, false, true];
        break;
      case 4: // home run
        squad.add(batter, 'hits');
        squad.add(batter, 'home_runs');
        this.hits[side]++;
        score(1 + (b[0] ? 1 : 0) + (b[1] ? 1 : 0) + (b[2] ? 1 : 0));
        this.bases = [false, false, false];
        break;
      default:
        if (b[2] && this.outs < 2 && rng.chance(SAC_FLY)) {
          score(1);
          this.bases = [b[0], b[1], false];
        }
        this.outs++;
    }
    if (scored > 0) {
      this.runs[this.inning - 1]![side] += scored;
      squad.add(batter, 'rbi', scored);
      for (let r = 0; r < scored; r++) squad.add(rng.pick(lineup), 'runs');
    }
    const lockMs = scored > 0 ? rng.int(30, 45) * 1000 : undefined;
    // Walk-off: the home side leads in the bottom of the last inning or later.
    const [h, a] = this.total();
    if (!this.top && this.inning >= this.innings && h > a) {
      this.over = true;
      return { next: 60_000 };
    }
    if (this.outs >= 3) return this.endHalf();
    return lockMs === undefined ? { next: PA_MS } : { next: PA_MS, lockMs };
  }

  private endHalf(): StepResult {
    this.outs = 0;
    this.bases = [false, false, false];
    const [h, a] = this.total();
    if (this.top) {
      if (this.inning >= this.innings && h > a) {
        this.over = true;
        this.homeSkipped = true;
        return { next: 60_000 };
      }
      this.top = false;
    } else {
      if (this.inning >= this.innings && h !== a) {
        this.over = true;
        return { next: 60_000 };
      }
      this.inning++;
      this.top = true;
      this.runs.push([0, 0]);
    }
    // Extra innings start with a runner on second.
    if (this.inning > this.innings) this.bases = [false, true, false];
    this.between = true;
    return { next: HALF_BREAK_MS };
  }

  private periodScores(): PeriodScore[] {
    return this.runs.map(([h, a], i) => ({ period: `I${i + 1}`, home: h, away: a }));
  }

  snapshot(): Snapshot {
    const [h, a] = this.total();
    const cols = Array.from({ length: Math.max(this.innings, this.runs.length) }, (_, i) => String(i + 1));
    const row = (side: 0 | 1): Array<number | string> => [
      // Real box scores show an X for the bottom half that was never played.
      ...cols.map((_, i): number | string =>
        side === 0 && this.homeSkipped && i === this.runs.length - 1 ? 'X' : (this.runs[i]?.[side] ?? 0),
      ),
      side === 0 ? h : a,
      this.hits[side],
    ];
    return {
      score: { home: h, away: a },
      period: `I${this.inning}`,
      clock: null,
      periodScores: this.periodScores(),
      sportData: {
        period: `I${this.inning}`,
        half: this.top ? 'top' : 'bottom',
        bases: [...this.bases],
        outs: this.outs,
      },
      scoreboard: { headers: [...cols, 'R', 'H'], home: row(0), away: row(1) },
    };
  }

  inBreak(): boolean {
    return this.between;
  }

  nearEnd(): boolean {
    if (this.over || this.between) return false;
    const [h, a] = this.total();
    return this.inning >= this.innings && this.outs === 2 && (this.top ? h > a : a > h);
  }

  finished(): boolean {
    return this.over;
  }

  result(): FinalResult {
    const [h, a] = this.total();
    return { score: { home: h, away: a }, periodScores: this.periodScores(), winner: null };
  }

  stats(): PlayerStats[] {
    return [...this.squads[0].lines(), ...this.squads[1].lines()];
  }

  /**
   * The final score's distribution from the state: the engine's half-innings walked inning by
   * inning, with the skipped bottom of the last inning, the walk-off and extra innings (runner on
   * second) as played. Every market on the runs comes from it.
   */
  private runsToCome(): RunsToCome {
    const [h, a] = this.total();
    if (this.over) return settled(h, a);
    return this.outlook.runsToCome({
      inning: this.inning,
      top: this.top,
      outs: this.outs,
      bases: this.bits(),
      home: h,
      away: a,
    });
  }

  private bits(): number {
    return (this.bases[0] ? 1 : 0) + (this.bases[1] ? 2 : 0) + (this.bases[2] ? 4 : 0);
  }
  markets(depth: MarketDepth): FairMarket[] {
    const names = this.ctx.names;
    const runs = this.runsToCome();
    const { margin, total } = runs;
    const full = depth === 'full';
    const tier = this.ctx.league.tier;
    // No tie: extra innings are walked until one side leads.
    const out: FairMarket[] = [moneyline(names, margin.above(0))];
    for (const line of full ? [-2.5, -1.5, 1.5, 2.5] : [-1.5, 1.5])
      out.push(asianHandicap(names, margin, line, null, null, ASIAN_HANDICAP.key, 'Run Line'));
    for (const line of full ? [6.5, 7.5, 8.5, 9.5, 10.5] : [8.5])
      out.push(totals(total, line, null, null, TOTALS.key, 'Total Runs'));
    if (!full) return out;
    for (const line of [3.5, 4.5]) {
      out.push(teamTotals('home', names, runs.home, line));
      out.push(teamTotals('away', names, runs.away, line));
    }
    out.push(oddEven(total));
    // The first inning (graded on period I1): its halves still to play, from the same chains.
    const first = this.runs[0]!;
    const inFirst = this.inning === 1 && !this.over;
    const now = this.outlook.side(this.top ? 1 : 0).runs(this.outs, this.bits());
    const none = Float64Array.of(1);
    const firstH = !inFirst ? none : this.top ? this.outlook.side(0).runs(0, 0) : now;
    const firstA = inFirst && this.top ? now : none;
    const g1 = new Grid(new Dist(first[0], firstH), new Dist(first[1], firstA));
    out.push(matchResult(names, g1.margin(), 'i1', '1st Inning'));
    out.push(totals(g1.total(), 0.5, 'i1', '1st Inning', TOTALS.key, 'Total Runs'));
    if (tier === 1) {
      const [h, a] = this.total();
      for (const side of [0, 1] as const) {
        const lineup = this.batters(side);
        const k = side === 0 ? this.batting[0] / this.batting[1] : this.batting[1] / this.batting[0];
        // Per plate appearance as the engine plays it: a hit is a single, double, triple or home run.
        const perPa = HITS_PER_PA * k;
        // Plate appearances left per batter: the side's runs to come in fresh half-innings' worth.
        const fresh = this.outlook.side(side);
        const halves = (side === 0 ? runs.home.mean() - h : runs.away.mean() - a) / mean(fresh.runs(0, 0));
        const sidePas = halves * fresh.pas;
        for (const p of [...lineup].sort((x, y) => y.player.skill - x.player.skill).slice(0, 4)) {
          const hits = p.counters.hits ?? 0;
          const hr = p.counters.home_runs ?? 0;
          // This batter's plate appearances left, from where he stands in the order.
          const slot = (lineup.indexOf(p) - (this.order[side] % lineup.length) + lineup.length) % lineup.length;
          const pas = batterPas(sidePas, lineup.length, slot);
          out.push(
            playerProp(
              'hits',
              'Hits',
              p.player.id,
              p.player.name,
              0.5,
              hits > 0 ? 1 : 1 - HITS_DISPERSION ** ((perPa * pas) / (1 - HITS_DISPERSION)),
              hits,
              p.side,
            ),
          );
          out.push(
            playerProp(
              'home_runs',
              'Home Runs',
              p.player.id,
              p.player.name,
              0.5,
              hr > 0 ? 1 : 1 - Math.exp(-PA_RATES[4] * k * pas),
              hr,
              p.side,
            ),
          );
        }
      }
    }
    return out;
  }
}

function mean(p: Float64Array): number {
  let m = 0;
  for (let i = 0; i < p.length; i++) m += i * p[i]!;
  return m;
}

/** A finished game's score as a certain outcome. */
function settled(h: number, a: number): RunsToCome {
  return {
    home: Dist.point(h),
    away: Dist.point(a),
    margin: Dist.point(h - a),
    total: Dist.point(h + a),
  };
}

/**
 * A batter's expected plate appearances among the `sidePas` his side is expected to have left,
 * `slot` places after the batter due (0: he is due): the side's k-th appearance is his when
 * k = slot, slot + n, slot + 2n…, each counting for the share of it the side is expected to reach.
 */
export function batterPas(sidePas: number, lineup: number, slot: number): number {
  let pas = 0;
  for (let k = slot; k < sidePas; k += lineup) pas += Math.min(1, sidePas - k);
  return pas;
}
