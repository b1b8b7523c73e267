// American football: play by play with downs, distance and field position; touchdowns, field goals, punts and turnovers.
import type { PlayerStats } from '../../messages.js';
import { TOTALS } from '../../../domain/families/index.js';
import { compoundPoissonAbove, diffDist, Dist, normalCdf, poissonAbove, sumDist } from '../pricing/dist.js';
import { playerProp, totals } from '../pricing/families.js';
import type { FairMarket } from '../pricing/fair.js';
import {
  finalDist,
  halfLines,
  pointsMarkets,
  spreadLines,
  type PeriodOutlook,
  type PointsBook,
  type TeamOutlook,
} from '../pricing/points.js';
import { TeamPlayers, type TrackedPlayer } from './team-players.js';
import { TimedEngine, type Tick } from './timed.js';
import type { EngineContext, MarketDepth } from './types.js';

const SECONDS_PER_PLAY = 23.5;
const POINTS_PER_DRIVE = 2.0;
const DRIVE_SECONDS = 165;
/** Variance of a drive's points over its mean (0, 3, 6 or 7). */
const DISPERSION = 3.9;
/**
 * Drives alternate on one clock: a side that holds the ball scores and keeps the other from
 * scoring, so the sides' points move against each other and the total spreads narrower than two
 * independent counts. The full-game totals are priced with the variance scaled by this; with
 * independent counts the book was underconfident on them in play (calibration slope 1.13-1.16 over
 * two seeds of 2,000 games; 1.01-1.04 now).
 */
const TOTAL_SPREAD = 0.8;
/**
 * Change of yards gained per point of lead, and its cap. Kept small: a larger effect pulled every
 * trailing team back and squeezed the margin spread to ~11.8 points against the NFL file's 14.5.
 */
const SCORE_EFFECT = 0.002;
const SCORE_EFFECT_CAP = 0.12;
/**
 * Rating difference to log yards-per-play ratio, and the home edge. With the league's rating spread
 * they put the opening spreads near the NFL file's (~6.3 points rms, ~4-5% of favourites at 1.15).
 */
const RATING_EFFECT = 0.15;
const HOME_EDGE = 0.028;
/**
 * Exponent turning the yards-per-play ratio into a points-per-drive ratio. Measured on the engine
 * (seeded samples: the expected margin regresses on the real one with slope ~1); 2.2 overstated it
 * threefold, so books priced favourites far shorter than they won.
 */
const YARDS_TO_POINTS = 0.85;
/** Who a completed pass goes to, and who carries a run the lead back does not (weights by position, times skill). */
const TARGET = (pos: string): number => (pos === 'WR' ? 1.2 : pos === 'TE' ? 0.7 : pos === 'RB' ? 0.4 : 0);
const RUSHER = (pos: string): number => (pos === 'RB' ? 1 : pos === 'QB' ? 0.3 : 0);
const LEAD_BACK_CARRIES = 0.7;
/**
 * Share of a side's plays that are a pass or a run: the rest are fourth-down kicks (punts, field
 * goals) and plays cut short at the end of a period. Measured on the engine (300 seeded tier-1
 * games: a quarterback passed for 261 yards a game where every play counted would give 301).
 */
const SNAP_SHARE = 0.87;
/**
 * Touchdowns a side scores per drive at even strength, how they grow with the yards-per-play ratio,
 * and the share of them that are passes (the rest are runs). Measured on the engine (3,000 seeded
 * tier-1 games each on seeds 11 and 23, least squares of a side's touchdowns on drives × a × ratio^k:
 * a 0.217 / 0.217, k 1.18 / 1.14; passes 0.674 of 14,400 touchdowns). They are not POINTS_PER_DRIVE
 * / 7: field goals and safeties make a quarter of the points, and touchdowns grow faster with the
 * ratio than points do (a weak side kicks more of its scores).
 */
const TD_PER_DRIVE = 0.217;
const TD_RATIO_EXP = 1.15;
const PASS_TD_SHARE = 0.675;
/**
 * A scoring drive's points as the engine plays them: touchdowns (7, or 6 without the extra point
 * 6% of the time) at TD_PER_DRIVE, field goals for the rest of POINTS_PER_DRIVE. Sudden-death
 * overtime ends at the first score, so it is priced on these rather than on points per drive.
 */
const TD_POINTS = 0.94 * 7 + 0.06 * 6;
const FG_PER_DRIVE = (POINTS_PER_DRIVE - TD_PER_DRIVE * TD_POINTS) / 3;
const SCORES_PER_DRIVE = TD_PER_DRIVE + FG_PER_DRIVE;
const POINTS_PER_SCORE = POINTS_PER_DRIVE / SCORES_PER_DRIVE;
const SQUARED_POINTS_PER_SCORE = (TD_PER_DRIVE * (0.94 * 49 + 0.06 * 36) + FG_PER_DRIVE * 9) / SCORES_PER_DRIVE;
/**
 * Late in the game the total is priced drive by drive (see drivesTotal): a completed drive's length
 * in seconds (one that scores, one that does not), and the seconds the drive in progress still
 * takes by where the ball is (10-yard bands from the own goal line), as it goes on to score or not:
 * a scoring drive takes longer, so fewer come in the time left, and a drive in progress that will
 * not finish in time is more often one that would have scored. Measured on the engine (300 seeded
 * tier-1 games, seed 7: 6,756 drives, 34,631 plays of drives in progress).
 */
const DRIVE_LENGTH = { scoring: { mean: 208, sd: 73 }, other: { mean: 122, sd: 60 } } as const;
const DRIVE_LEFT = {
  scoring: { mean: [248, 240, 224, 199, 172, 142, 104, 81, 61, 42], sd: [88, 62, 60, 57, 53, 52, 51, 42, 35, 27] },
  other: { mean: [113, 102, 95, 85, 79, 70, 65, 58, 55, 38], sd: [76, 67, 60, 56, 52, 45, 40, 37, 33, 24] },
} as const;
/**
 * Points the drive in progress goes on to score, by the same bands (400 seeded tier-1 games, seed 9:
 * 46,138 plays). Not drivePoints, which nets off what the other side gains from where the drive
 * leaves the ball: the drive's own points averaged 2.72 where drivePoints gave 1.94.
 */
const DRIVE_SCORES = [0.94, 1.15, 1.48, 1.8, 2.3, 2.7, 3.58, 4.29, 4.86, 5.52] as const;
/** Variance of a play's seconds (uniform 5-42, as the plays draw them; SECONDS_PER_PLAY its mean). */
const LAST_PLAY_VARIANCE = (42 - 5) ** 2 / 12;
/** Regulation seconds left below which the full-game total is priced drive by drive. */
const LATE_SECONDS = 900;
/** Yards of a completed pass and of a run at even strength (times the side's yards factor), as the plays draw them. */
const PASS_GAIN = { mean: 11, sd: 8 } as const;
const RUN_GAIN = { mean: 4.3, sd: 4 } as const;
const STATS = ['passing_yards', 'rushing_yards', 'receiving_yards', 'touchdowns', 'field_goals'];

function ordinal(n: number): string {
  return n === 1 ? '1st' : n === 2 ? '2nd' : n === 3 ? '3rd' : `${n}th`;
}

/** Expected points of the drive in progress from field position (0 = own goal line). */
function drivePoints(ballOn: number): number {
  return Math.max(-0.5, -0.6 + 6.5 * Math.pow(Math.max(0, ballOn) / 100, 1.4));
}

/** A 10-yard band table (DRIVE_LEFT's, DRIVE_SCORES) at `ballOn`, interpolated between band centres. */
function byBand(table: readonly number[], ballOn: number): number {
  const x = Math.min(9, Math.max(0, (ballOn - 5) / 10));
  const i = Math.min(8, Math.floor(x));
  return table[i]! + (table[i + 1]! - table[i]!) * (x - i);
}

/** A drive's points (0, 3, 6 or 7) with `td` touchdowns and `fg` field goals a drive. */
function drivePmf(td: number, fg: number): Dist {
  const p = new Float64Array(8);
  const t = Math.max(0, td);
  const f = Math.max(0, Math.min(fg, 0.98 - t));
  p[7] = 0.94 * t;
  p[6] = 0.06 * t;
  p[3] = f;
  p[0] = 1 - t - f;
  return new Dist(0, p);
}

export class AmericanFootballEngine extends TimedEngine {
  private readonly gain: [number, number];
  private offense: 0 | 1;
  private readonly receivedFirst: 0 | 1;
  private ballOn = 25;
  private down = 1;
  private toGo = 10;
  private readonly squads: [TeamPlayers, TeamPlayers];
  private readonly lines: {
    spread: number[];
    total: number[];
    teamTotal: [number[], number[]];
    halfTotal: number[];
    halfSpread: number[];
    props: Map<string, number>;
  };

  constructor(ctx: EngineContext) {
    super(ctx, {
      periods: ['Q1', 'Q2', 'Q3', 'Q4'],
      periodSeconds: 15 * 60,
      overtime: { names: ['OT'], seconds: 600, suddenDeath: true },
      breakMs: (i, ot) => (ot ? 3 * 60_000 : i === 1 ? 13 * 60_000 : 2 * 60_000),
      wallPerGameSecond: 2.6 * 1000,
      countdown: true,
    });
    const diff = (ctx.home.rating - ctx.away.rating) * RATING_EFFECT;
    this.gain = [Math.exp(diff + HOME_EDGE), Math.exp(-diff - HOME_EDGE)];
    this.offense = ctx.rng.chance(0.5) ? 0 : 1;
    this.receivedFirst = this.offense;
    this.squads = [new TeamPlayers(ctx.home, 'home', STATS), new TeamPlayers(ctx.away, 'away', STATS)];
    const drives = 3600 / DRIVE_SECONDS / 2;
    const expH = drives * POINTS_PER_DRIVE * Math.pow(this.gain[0] / this.gain[1], YARDS_TO_POINTS);
    const expA = drives * POINTS_PER_DRIVE * Math.pow(this.gain[1] / this.gain[0], YARDS_TO_POINTS);
    const tier = ctx.league.tier;
    const props = new Map<string, number>();
    for (const side of [0, 1] as const) {
      const plays = (3600 / SECONDS_PER_PLAY / 2) * SNAP_SHARE;
      for (const [p, stat, perPlay] of this.propPlayers(side))
        props.set(`${p.player.id}:${stat}`, Math.floor(plays * perPlay) + 0.5);
    }
    this.lines = {
      spread: spreadLines(expH - expA, 1.5, tier === 1 ? 5 : 3),
      total: halfLines(expH + expA, 2, tier === 1 ? 5 : 3),
      teamTotal: [halfLines(expH, 3, 2), halfLines(expA, 3, 2)],
      halfTotal: halfLines((expH + expA) / 2, 3, 2),
      halfSpread: spreadLines((expH - expA) / 2, 1.5, 1),
      props,
    };
  }

  private first(side: 0 | 1, position: string): TrackedPlayer | null {
    return this.squads[side].players.find((p) => p.player.position === position) ?? null;
  }

  /** The prop players of a side with their stat and expected yards per team play. */
  private propPlayers(side: 0 | 1): Array<[TrackedPlayer, string, number]> {
    const out: Array<[TrackedPlayer, string, number]> = [];
    // Score effects: a trailing offence gains more against softer coverage, a leading one plays safe.
    const [h, a] = this.total();
    const lead = side === 0 ? h - a : a - h;
    const g = this.gain[side] * (1 - Math.max(-SCORE_EFFECT_CAP, Math.min(SCORE_EFFECT_CAP, lead * SCORE_EFFECT)));
    const qb = this.first(side, 'QB');
    const rb = this.first(side, 'RB');
    const wr = this.first(side, 'WR');
    const squad = this.squads[side];
    if (qb) out.push([qb, 'passing_yards', 0.55 * 0.63 * PASS_GAIN.mean * g]);
    if (rb) out.push([rb, 'rushing_yards', 0.45 * this.carryShare(side, rb) * RUN_GAIN.mean * g]);
    // The first receiver's share of the targets, as the plays pick them.
    if (wr) out.push([wr, 'receiving_yards', 0.55 * 0.63 * PASS_GAIN.mean * g * squad.share(wr, TARGET)]);
    return out;
  }

  /** The lead back's share of the runs: LEAD_BACK_CARRIES of them, and his share of the rest (as the plays pick runners). */
  private carryShare(side: 0 | 1, rb: TrackedPlayer): number {
    return LEAD_BACK_CARRIES + (1 - LEAD_BACK_CARRIES) * this.squads[side].share(rb, RUSHER);
  }

  /**
   * A prop player's expected touchdowns in `seconds` of play: the side's touchdowns to come (at the
   * yards ratio with the score effects of the lead now, as the outlook prices points) times his
   * share. The engine credits a touchdown to whoever carries the ball in: a pass's target, a run's
   * runner; so a receiver takes his share of the targets of the passing ones, the lead back his
   * carries of the rushing ones and his (small) share of the targets.
   */
  private touchdownMean(side: 0 | 1, p: TrackedPlayer, stat: string, seconds: number): number {
    const other = side === 0 ? 1 : 0;
    const ratio = this.effectiveGain(side) / this.effectiveGain(other);
    const team = (seconds / DRIVE_SECONDS / 2) * TD_PER_DRIVE * Math.pow(ratio, TD_RATIO_EXP);
    const caught = PASS_TD_SHARE * this.squads[side].share(p, TARGET);
    const carried = stat === 'rushing_yards' ? (1 - PASS_TD_SHARE) * this.carryShare(side, p) : 0;
    return team * (caught + carried);
  }

  protected override peekSeconds(): number {
    return SECONDS_PER_PLAY;
  }

  private turnover(spot: number): void {
    this.offense = this.offense === 0 ? 1 : 0;
    this.ballOn = Math.min(99, Math.max(1, 100 - spot));
    this.down = 1;
    this.toGo = Math.min(10, 100 - this.ballOn);
  }

  /** In the last two minutes of regulation, level or down by 1-3 and in range: kick now (real teams do). */
  private kickToTieOrWin(side: 0 | 1): boolean {
    const lastRegulation = !this.inOvertime && this.periodIndex === this.format.periods.length - 1;
    if (!lastRegulation || this.periodLength() - this.elapsed > 120 || this.ballOn < 62) return false;
    const [h, a] = this.total();
    const lead = side === 0 ? h - a : a - h;
    return lead <= 0 && lead >= -3;
  }

  private kickoff(): void {
    this.offense = this.offense === 0 ? 1 : 0;
    this.ballOn = 25;
    this.down = 1;
    this.toGo = 10;
  }

  protected tick(): Tick {
    const { rng } = this.ctx;
    const side = this.offense;
    const team = side === 0 ? 'home' : 'away';
    const squad = this.squads[side];
    const seconds = Math.min(rng.uniform(5, 42), this.periodLength() - this.elapsed);
    if (this.elapsed === 0 && this.periodIndex === 2) {
      // Second half: the team that kicked off first receives.
      this.offense = this.receivedFirst === 0 ? 1 : 0;
      this.ballOn = 25;
      this.down = 1;
      this.toGo = 10;
    }
    if (this.down === 4 || this.kickToTieOrWin(side)) {
      const distance = 100 - this.ballOn + 17;
      if (distance <= 55) {
        if (rng.chance(Math.min(0.98, 0.98 - Math.max(0, distance - 30) * 0.017))) {
          this.score(team, 3);
          squad.add(this.first(side, 'K'), 'field_goals');
          this.kickoff();
          return { seconds, lockMs: rng.int(25, 40) * 1000 };
        }
        this.turnover(this.ballOn);
        return { seconds };
      }
      if (!(this.toGo <= 2 && this.ballOn >= 45)) {
        const landing = this.ballOn + 40;
        this.turnover(landing >= 100 ? 80 : landing);
        return { seconds };
      }
    }
    const wasRedZone = this.ballOn >= 80;
    let gained: number;
    // Score effects: a trailing offence gains more against softer coverage, a leading one plays safe.
    const [h, a] = this.total();
    const lead = side === 0 ? h - a : a - h;
    const g = this.gain[side] * (1 - Math.max(-SCORE_EFFECT_CAP, Math.min(SCORE_EFFECT_CAP, lead * SCORE_EFFECT)));
    if (rng.chance(0.55)) {
      if (rng.chance(0.025)) {
        this.turnover(this.ballOn + rng.int(0, 15));
        return { seconds, lockMs: rng.int(5, 12) * 1000 };
      }
      if (rng.chance(0.63)) {
        gained = Math.max(0, Math.round(rng.normal(PASS_GAIN.mean, PASS_GAIN.sd) * g));
        squad.add(this.first(side, 'QB'), 'passing_yards', Math.min(gained, 100 - this.ballOn));
        const target = squad.pick(rng, TARGET);
        squad.add(target, 'receiving_yards', Math.min(gained, 100 - this.ballOn));
        if (this.ballOn + gained >= 100) squad.add(target, 'touchdowns');
      } else gained = 0;
    } else {
      if (rng.chance(0.01)) {
        this.turnover(this.ballOn);
        return { seconds, lockMs: rng.int(5, 12) * 1000 };
      }
      gained = Math.round(rng.normal(RUN_GAIN.mean, RUN_GAIN.sd) * g);
      const runner = rng.chance(LEAD_BACK_CARRIES) ? this.first(side, 'RB') : squad.pick(rng, RUSHER);
      squad.add(runner, 'rushing_yards', Math.min(gained, 100 - this.ballOn));
      if (this.ballOn + gained >= 100) squad.add(runner, 'touchdowns');
    }
    this.ballOn += gained;
    if (this.ballOn >= 100) {
      this.score(team, rng.chance(0.94) ? 7 : 6);
      this.kickoff();
      return { seconds, lockMs: rng.int(30, 60) * 1000 };
    }
    if (this.ballOn <= 0) {
      this.score(side === 0 ? 'away' : 'home', 2);
      this.kickoff();
      return { seconds, lockMs: rng.int(30, 45) * 1000 };
    }
    if (gained >= this.toGo) {
      this.down = 1;
      this.toGo = Math.min(10, 100 - this.ballOn);
    } else {
      this.down++;
      this.toGo -= gained;
      if (this.down > 4) this.turnover(this.ballOn);
    }
    if (!wasRedZone && this.ballOn >= 80) return { seconds, lockMs: rng.int(5, 15) * 1000 };
    return { seconds };
  }

  protected sportData(): Record<string, unknown> {
    const mid = this.ballOn === 50;
    const own = this.offense === 0 ? 'HOME' : 'AWAY';
    const opp = this.offense === 0 ? 'AWAY' : 'HOME';
    return {
      period: this.currentPeriod(),
      down_and_distance: `${ordinal(this.down)} & ${this.ballOn + this.toGo >= 100 ? 'Goal' : this.toGo}`,
      possession: this.offense === 0 ? 'home' : 'away',
      ball_on: mid ? '50' : this.ballOn < 50 ? `${own} ${this.ballOn}` : `${opp} ${100 - this.ballOn}`,
      red_zone: this.ballOn >= 80,
    };
  }

  /**
   * A side's points still to come. The yards ratio carries the score effects as the engine plays
   * them (a trailing offence gains more, a leading one less) at the lead now: priced without them,
   * a lead was expected to hold in full where the games gave back a sixth of it with 48 minutes
   * left (final margin less the priced one, regressed on the lead: -0.16), so the book was
   * overconfident in play (winner and handicap calibration slope 0.89; a trailing side priced
   * 0.217, won 0.243).
   */
  private outlook(side: 0 | 1, seconds: number, current: number, drive: boolean, spread = 1): TeamOutlook {
    const other = side === 0 ? 1 : 0;
    const perDrive = POINTS_PER_DRIVE * Math.pow(this.effectiveGain(side) / this.effectiveGain(other), YARDS_TO_POINTS);
    let mean = (seconds / DRIVE_SECONDS / 2) * perDrive;
    if (drive && this.offense === side && seconds > 0) mean += drivePoints(this.ballOn) - perDrive / 2;
    mean = Math.max(0, mean);
    return { current, mean, variance: (mean * DISPERSION + 1) * spread };
  }

  /**
   * Sudden-death overtime (in play or in the break before it) with `seconds` left: each side scores
   * at its rate (scores a drive, a drive every 2 x DRIVE_SECONDS of its own) until the first score
   * ends it. Each side's points to come are that score if it is theirs, so the sides exclude each
   * other: `coupling` +1 widens each side's variance for the margin (their covariance, -p_h p_a s^2,
   * counts twice against it), -1 narrows it for the total. `expectedSeconds` is how long it lasts.
   */
  private suddenDeath(seconds: number): {
    outlook: (side: 0 | 1, current: number, coupling: 1 | -1) => TeamOutlook;
    expectedSeconds: number;
    anyScore: number;
  } {
    const rate = (side: 0 | 1): number => {
      const other = side === 0 ? 1 : 0;
      const ratio = Math.pow(this.effectiveGain(side) / this.effectiveGain(other), YARDS_TO_POINTS);
      // Drives score or not one after another: a geometric run, so no score in n drives is (1-q)^n
      // (a Poisson at q a drive priced a scoreless overtime at 0.25 where 0.13 of 155 were).
      return -Math.log(1 - Math.min(0.9, SCORES_PER_DRIVE * ratio)) / (2 * DRIVE_SECONDS);
    };
    const rates = [rate(0), rate(1)] as const;
    const all = rates[0] + rates[1];
    const anyScore = 1 - Math.exp(-all * seconds);
    const first = [(rates[0] / all) * anyScore, (rates[1] / all) * anyScore] as const;
    const cov = first[0] * first[1] * POINTS_PER_SCORE ** 2;
    return {
      outlook: (side, current, coupling) => {
        const p = first[side];
        const mean = p * POINTS_PER_SCORE;
        const variance = Math.max(0.01, p * SQUARED_POINTS_PER_SCORE - mean * mean + coupling * cov);
        return { current, mean, variance };
      },
      expectedSeconds: anyScore / all,
      anyScore,
    };
  }

  /**
   * Chance regulation ends level, `seconds` before its end: the margin's outlook at 0, or when level
   * late, at least the chance nobody scores (the normal's spread, floored for a few seconds left,
   * put a level game at 0:39 at 0.16).
   */
  private tieChance(seconds: number): number {
    const [h, a] = this.total();
    const margin = diffDist(
      finalDist(this.outlook(0, seconds, h, true)),
      finalDist(this.outlook(1, seconds, a, true)),
    ).at(0);
    return h === a ? Math.max(margin, 1 - this.suddenDeath(seconds).anyScore) : margin;
  }

  /** A side's touchdowns and field goals a drive at the yards ratio with the lead now (as the outlook prices points). */
  private scoring(side: 0 | 1): { td: number; fg: number } {
    const other = side === 0 ? 1 : 0;
    const ratio = this.effectiveGain(side) / this.effectiveGain(other);
    const td = TD_PER_DRIVE * Math.pow(ratio, TD_RATIO_EXP);
    const perDrive = POINTS_PER_DRIVE * Math.pow(ratio, YARDS_TO_POINTS);
    return { td, fg: Math.max(0, (perDrive - td * TD_POINTS) / 3) };
  }

  /** The drive in progress: its points from where the ball is (at the side's strength), split as the side scores them. */
  private currentDrive(): Dist {
    const { td, fg } = this.scoring(this.offense);
    const points = (byBand(DRIVE_SCORES, this.ballOn) * (td * TD_POINTS + 3 * fg)) / POINTS_PER_DRIVE;
    const tdShare = (td * TD_POINTS) / Math.max(1e-9, td * TD_POINTS + 3 * fg);
    return drivePmf((points * tdShare) / TD_POINTS, (points * (1 - tdShare)) / 3);
  }

  /**
   * Points both sides score in the `seconds` left, drive by drive: the drive in progress, then
   * drives in turn, a scoring one longer than one that is not; drive k counts if its last play
   * starts before the whistle (the play it cuts is played in full), its end a normal sum of the
   * lengths before it given which of them scored. Priced at a rate per second instead, the points
   * came as if the clock never cut a drive, and in a normal's shape where only 0, 3, 6 and 7 come:
   * with 3 minutes left the book expected 3.0 points where 2.2 came, and priced the Over of the line
   * nearest even 0.45 where 0.25 went over.
   */
  private drivesTotal(seconds: number): Dist {
    const first = this.currentDrive();
    const scores = 1 - first.p[0]!;
    const [scored, not] = [new Float64Array(8), new Float64Array(8)];
    first.p.forEach((q, v) => (v > 0 ? (scored[v] = q / Math.max(1e-9, scores)) : (not[0] = 1)));
    const a = this.drivesAfter(seconds, new Dist(0, scored), DRIVE_LEFT.scoring);
    const b = this.drivesAfter(seconds, new Dist(0, not), DRIVE_LEFT.other);
    return new Dist(
      0,
      a.p.map((q, i) => scores * q + (1 - scores) * b.p[i]!),
    );
  }

  /** drivesTotal given how the drive in progress ends: its points `first`, its seconds left by band `left`. */
  private drivesAfter(seconds: number, first: Dist, left: { mean: readonly number[]; sd: readonly number[] }): Dist {
    const pmfs = [this.scoring(0), this.scoring(1)].map((x) => drivePmf(x.td, x.fg));
    const firstLeft = byBand(left.mean, this.ballOn);
    const firstVar = byBand(left.sd, this.ballOn) ** 2 + LAST_PLAY_VARIANCE;
    // P(drives 0..k all end in time | j of drives 1..k scored).
    const inTime = (k: number, j: number): number => {
      const mean = firstLeft + j * DRIVE_LENGTH.scoring.mean + (k - j) * DRIVE_LENGTH.other.mean;
      const variance = firstVar + j * DRIVE_LENGTH.scoring.sd ** 2 + (k - j) * DRIVE_LENGTH.other.sd ** 2;
      return normalCdf((seconds + SECONDS_PER_PLAY - mean) / Math.sqrt(variance));
    };
    const out = new Float64Array(8 * 16);
    out[0] = 1 - inTime(0, 0);
    // paths[j][x]: chance drives 0..k-1 scored x points, j of drives 1..k-1 scoring.
    let paths = [new Float64Array(out.length)];
    first.p.forEach((q, x) => (paths[0]![x] = q));
    for (let k = 1; k < 15; k++) {
      const drive = pmfs[k % 2 === 0 ? this.offense : 1 - this.offense]!;
      const scores = 1 - drive.p[0]!;
      const next = Array.from({ length: k + 1 }, () => new Float64Array(out.length));
      let alive = 0;
      // Only the points drives 0..k-1 can have scored (7 a drive at most), and a drive's 0, 3, 6, 7.
      const top = Math.min(out.length - 8, 7 * k);
      paths.forEach((row, j) => {
        const ended = inTime(k - 1, j);
        const goesOn = scores * inTime(k, j + 1) + (1 - scores) * inTime(k, j);
        const stop = Math.max(0, ended - goesOn);
        const [none, scored] = [next[j]!, next[j + 1]!];
        for (let x = 0; x <= top; x++) {
          const q = row[x]!;
          if (q === 0) continue;
          out[x]! += q * stop;
          alive += q * goesOn;
          none[x]! += q * drive.p[0]!;
          scored[x + 3]! += q * drive.p[3]!;
          scored[x + 6]! += q * drive.p[6]!;
          scored[x + 7]! += q * drive.p[7]!;
        }
      });
      paths = next;
      if (alive < 1e-6) break;
    }
    return new Dist(0, out);
  }

  /**
   * The full-game total late in regulation (LATE_SECONDS or less left), drive by drive, with the
   * sudden death a level score would bring (`tie`: its chance): null earlier, or in overtime.
   */
  private lateTotal(left: number, tie: number, later: { anyScore: number } | null): Dist | null {
    if (left <= 0 || left > LATE_SECONDS) return null;
    const [h, a] = this.total();
    const regulation = this.drivesTotal(left).shift(h + a);
    if (!later || tie <= 0) return regulation;
    // Overtime's first score ends it: a touchdown or a field goal, as often as drives score them.
    const q = tie * later.anyScore;
    const tdShare = TD_PER_DRIVE / SCORES_PER_DRIVE;
    const ot = new Float64Array(8);
    ot[0] = 1 - q;
    ot[3] = q * (1 - tdShare);
    ot[6] = q * tdShare * 0.06;
    ot[7] = q * tdShare * 0.94;
    return sumDist(regulation, new Dist(0, ot));
  }

  /** A side's yards factor with the score effect of its lead now (as propPlayers and the plays use it). */
  private effectiveGain(side: 0 | 1): number {
    const [h, a] = this.total();
    const lead = side === 0 ? h - a : a - h;
    return this.gain[side] * (1 - Math.max(-SCORE_EFFECT_CAP, Math.min(SCORE_EFFECT_CAP, lead * SCORE_EFFECT)));
  }

  markets(depth: MarketDepth): FairMarket[] {
    const tier = this.ctx.league.tier;
    const full = depth === 'full';
    const left = this.remainingRegulationSeconds();
    const otLeft = this.overtimeSecondsLeft();
    const [h, a] = this.total();
    const periods: PeriodOutlook[] = [];
    if (full) {
      const halves: Array<[string, string, number]> = [
        ['1h', '1st Half', 0],
        ['2h', '2nd Half', 2],
      ];
      for (const [code, name, first] of halves) {
        const q1 = this.periodPoints(first);
        const q2 = this.periodPoints(first + 1);
        const rem = this.remainingInPeriod(first) + this.remainingInPeriod(first + 1);
        const inHalf = this.periodIndex === first || this.periodIndex === first + 1;
        periods.push({
          code,
          name,
          home: this.outlook(0, rem, q1[0] + q2[0], inHalf),
          away: this.outlook(1, rem, q1[1] + q2[1], inHalf),
          spreadLines: this.lines.halfSpread,
          totalLines: this.lines.halfTotal,
          threeWay: true,
        });
      }
    }
    // In overtime, or in the break before it (a level score), the sudden death still to play; without
    // it the break priced every market as if the game had ended level (every prop not yet won at Under).
    const sd = otLeft > 0 ? this.suddenDeath(otLeft) : null;
    // In regulation, the overtime a level score would bring, weighted by the chance of one: without
    // it a level game with seconds to go priced a touchdown in overtime near 0 (totals, props).
    const ot = this.format.overtime;
    const later = !sd && left > 0 && ot !== null ? this.suddenDeath(ot.seconds) : null;
    const tie = later ? this.tieChance(left) : 0;
    const side = (s: 0 | 1, current: number, spread: number): TeamOutlook => {
      const coupling = spread === 1 ? 1 : -1;
      if (sd) return sd.outlook(s, current, coupling);
      const reg = this.outlook(s, left, current, true, spread);
      if (!later || tie <= 0) return reg;
      // A mixture: regulation's points, plus the overtime's with chance `tie`.
      const o = later.outlook(s, current, coupling);
      const extra = tie * (o.variance + o.mean ** 2) - (tie * o.mean) ** 2;
      return { current, mean: reg.mean + tie * o.mean, variance: reg.variance + extra };
    };
    const book: PointsBook = {
      names: this.ctx.names,
      home: side(0, h, 1),
      away: side(1, a, 1),
      hasDraw: false,
      tieHome: 0.5,
      spreadLines: full ? this.lines.spread : this.lines.spread.slice(1, -1),
      totalLines: full ? this.lines.total : this.lines.total.slice(1, -1),
      teamTotalLines: full ? this.lines.teamTotal : [[], []],
      oddEven: false,
      periods,
      totalTitle: 'Total Points',
    };
    // The full-game totals from the total's own outlook (narrower), everything else from the sides';
    // late in regulation, drive by drive.
    const late = sd ? null : this.lateTotal(left, tie, later);
    const byTotal = new Map(
      (late
        ? book.totalLines.map((line) => totals(late, line, null, null, TOTALS.key, book.totalTitle))
        : pointsMarkets({
            ...book,
            home: side(0, h, TOTAL_SPREAD),
            away: side(1, a, TOTAL_SPREAD),
            spreadLines: [],
            teamTotalLines: [[], []],
            periods: [],
          }).filter((m) => m.key.startsWith('totals:'))
      ).map((m) => [m.key, m]),
    );
    const out = pointsMarkets(book).map((m) => byTotal.get(m.key) ?? m);
    const propSeconds = sd ? sd.expectedSeconds : left + tie * (later?.expectedSeconds ?? 0);
    if (full && tier === 1) out.push(...this.props(propSeconds));
    return out;
  }

  /**
   * P(a prop player's yards to come > `need`), `mean` expected, as the plays gain them. A receiver's
   * come in a few catches of 0-40 yards (a compound Poisson on the pass's yards: priced as a normal,
   * the Over was 0.500 at the opening where 0.470 went over); a back's in many short runs (a normal
   * on his carries' spread: the passing spread, ~64 yards a game where ~31 are played, had his
   * in-play prices too near even). Passing keeps its measured spread (calibration slope ~1).
   */
  private yardsOver(stat: string, side: 0 | 1, plays: number, mean: number, need: number): number {
    if (need < 0) return 1;
    if (mean <= 0) return 0;
    const g = this.effectiveGain(side);
    if (stat === 'rushing_yards') {
      const carries = mean / (RUN_GAIN.mean * g);
      const sd = Math.sqrt(carries * g * g * (RUN_GAIN.mean ** 2 + RUN_GAIN.sd ** 2));
      return 1 - normalCdf((need - mean) / Math.max(1, sd));
    }
    if (stat === 'receiving_yards') {
      // A catch's yards: round(Normal(11g, 8g)), 0 below; catches as many as make the mean.
      const mu = PASS_GAIN.mean * g;
      const sigma = PASS_GAIN.sd * g;
      const sizes = Math.ceil(mu + 5 * sigma);
      const pmf = Array.from({ length: sizes }, (_, i) =>
        i + 1 === sizes
          ? 1 - normalCdf((i + 0.5 - mu) / sigma)
          : normalCdf((i + 1.5 - mu) / sigma) - normalCdf((i + 0.5 - mu) / sigma),
      );
      const perCatch = pmf.reduce((sum, q, i) => sum + q * (i + 1), 0);
      const catches = mean / perCatch;
      return compoundPoissonAbove(
        pmf.map((q) => q * catches),
        need,
      );
    }
    return 1 - normalCdf((need - mean) / (Math.sqrt(plays * 60) + 1));
  }

  private props(secondsLeft: number): FairMarket[] {
    const out: FairMarket[] = [];
    const plays = (secondsLeft / SECONDS_PER_PLAY / 2) * SNAP_SHARE;
    for (const side of [0, 1] as const) {
      for (const [p, stat, perPlay] of this.propPlayers(side)) {
        const line = this.lines.props.get(`${p.player.id}:${stat}`)!;
        const cur = p.counters[stat] ?? 0;
        const mean = plays * perPlay;
        const label =
          stat === 'passing_yards' ? 'Passing Yards' : stat === 'rushing_yards' ? 'Rushing Yards' : 'Receiving Yards';
        out.push(
          playerProp(
            stat,
            label,
            p.player.id,
            p.player.name,
            line,
            this.yardsOver(stat, side, plays, mean, line - cur),
            cur,
            p.side,
          ),
        );
        if (stat !== 'passing_yards') {
          const tdCur = p.counters.touchdowns ?? 0;
          const tdMean = this.touchdownMean(side, p, stat, secondsLeft);
          out.push(
            playerProp(
              'touchdowns',
              'Touchdowns',
              p.player.id,
              p.player.name,
              0.5,
              poissonAbove(tdMean, 0.5 - tdCur),
              tdCur,
              p.side,
            ),
          );
        }
      }
    }
    return out;
  }

  stats(): PlayerStats[] {
    return [...this.squads[0].lines(), ...this.squads[1].lines()];
  }
}
