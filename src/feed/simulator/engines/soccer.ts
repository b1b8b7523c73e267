// Soccer match engine: minute by minute, goals as a time-varying Poisson process, cards, subs, extra time and penalties.
import type { PeriodScore, TeamSide } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import {
  NO_PROP_LINES,
  playerPropLines,
  playerPropMarkets,
  soccerMarkets,
  type PropLines,
  type PropOutlook,
  type PropPlayer,
  type SoccerPricingState,
} from '../pricing/soccer.js';
import type { FairMarket } from '../pricing/fair.js';
import {
  SOCCER_STATS,
  assistWeight,
  goalWeight,
  matchDaySquad,
  onPitch,
  pickWeighted,
  ratePer90,
  substitute,
  type Squad,
  type SquadPlayer,
} from './soccer-squad.js';
import {
  STOPPAGE_1H,
  STOPPAGE_2H,
  STOPPAGE_ET,
  SUB_CHANCE_2H,
  SUB_CHANCE_ET,
  SUB_FROM_MINUTE,
  MEAN_STOPPAGE_ET,
  andSentOff,
  coarse,
  minutesAhead,
  type BenchSpot,
  type ClockState,
  type MinutesDist,
} from './soccer-minutes.js';
import {
  mmss,
  playerLine,
  type EngineContext,
  type FinalResult,
  type MarketDepth,
  type MatchEngine,
  type Snapshot,
  type StepResult,
} from './types.js';

const MINUTE = 60_000;
/** How long a red card locks the book (a review, then a repriced game of ten against eleven). */
const RED_CARD_LOCK_MS = 45_000;

type Phase = '1H' | 'HT' | '2H' | 'ET_BREAK' | 'ET1' | 'ET_HT' | 'ET2' | 'PEN_BREAK' | 'PEN' | 'END';
type Half = 'h1' | 'h2' | 'et';

/** Goal intensity within a half: rises from 0.8 to 1.2 of the average; stoppage time is busier. */
export function minuteFactor(minuteOfHalf: number, halfLength: number): number {
  if (minuteOfHalf > halfLength) return 1.25;
  return 0.8 + (0.4 * (minuteOfHalf - 0.5)) / halfLength;
}

const EXPECTED_STOPPAGE = { h1: 2.5, h2: 4.5, et: 1 } as const;
/** Chance per minute that a player not booked in it is sent off outright. */
const STRAIGHT_RED = 0.003 / 90;
/** A player who plays no more (substituted, sent off). */
const NO_MINUTES: MinutesDist = [[0, 1]];

function poissonPmf(lambda: number, k: number): number {
  if (k < 0) return 0;
  let p = Math.exp(-lambda);
  for (let i = 1; i <= k; i++) p *= lambda / i;
  return p;
}

/**
 * A player's chance to be sent off in his n-th minute still to play: a straight red, or a second
 * yellow (booked now, or booked once in the n - 1 minutes before).
 */
function sentOffChance(p: SquadPlayer): (n: number) => number {
  const c = ratePer90(p, 'cards') / 90;
  const straight = (1 - c) * STRAIGHT_RED;
  if (p.counters.cards >= 1) return () => c + straight;
  return (n) => c * (n - 1) * c * Math.pow(1 - c, n - 2) + straight;
}

export class SoccerEngine implements MatchEngine {
  private phase: Phase = '1H';
  /** Minutes played in the current half (stoppage included). */
  private halfMinute = 0;
  /** Clock when the last half of play ended (shown once the match is over). */
  private finalClock: number | null = null;
  private stoppage = 0;
  /**
   * Share of the minute under way already run (0-1), while markets() prices between two steps: the
   * clock runs on between the minute steps, and the play still to come is what is left from there.
   */
  private runMinute = 0;
  /** Steps played, and the player outlook worked out at the last one (props move at steps only). */
  private steps = 0;
  private playersAt: { steps: number; players: PropPlayer[]; props: FairMarket[] } | null = null;
  private readonly goals: Record<Half, [number, number]> = { h1: [0, 0], h2: [0, 0], et: [0, 0] };
  private readonly pens: [number, number] = [0, 0];
  private penKicks = 0;
  private etStarted = false;
  private readonly corners: [number, number] = [0, 0];
  private readonly squads: [Squad, Squad];
  private readonly lambda: [number, number];
  private readonly knockout: boolean;
  private readonly propLines = new Map<string, PropLines>();

  constructor(private readonly ctx: EngineContext) {
    const { rng, home, away } = ctx;
    this.knockout = ctx.league.plan.format?.knockout === true;
    // Base rates per 90 minutes before the minute profile and stoppage time (which add ~12%): top
    // flights score ~3.25 a game, home 1.8 / away 1.45 (openfootball 2023-24, see reference-figures.ts).
    const diff = (home.rating - away.rating) * 0.18;
    this.lambda = [Math.exp(Math.log(1.58) + diff), Math.exp(Math.log(1.24) - diff)];
    this.squads = [matchDaySquad(rng, home, 'home'), matchDaySquad(rng, away, 'away')];
    // Each player's prop lines from what the player is expected to make from kick-off (over the
    // minutes substitutions give him: a starter ~90, a substitute ~7): the state now is the kick-off
    // state, so a restarted world that rebuilds the engine gets the same lines, keys and ids.
    // Props are in tier-1 books only (soccerMarkets): the others need no lines.
    if (ctx.league.tier === 1)
      for (const pl of this.propPlayers()) this.propLines.set(pl.id, playerPropLines(pl.outlook));
  }

  expectedDurationMs(): number {
    return (90 + 7 + 15) * MINUTE;
  }

  begin(): number {
    return MINUTE;
  }

  private half(): Half {
    return this.phase === '1H' ? 'h1' : this.phase === '2H' ? 'h2' : 'et';
  }

  private halfLength(): number {
    return this.phase === 'ET1' || this.phase === 'ET2' ? 15 : 45;
  }

  private inPlay(): boolean {
    return this.phase === '1H' || this.phase === '2H' || this.phase === 'ET1' || this.phase === 'ET2';
  }

  /** Goal rate per minute of one side now (red cards weaken a side and help the other). */
  private ratePerMinute(side: 0 | 1, factor: number): number {
    const own = this.squads[side].reds;
    const opp = this.squads[side === 0 ? 1 : 0].reds;
    return (this.lambda[side] / 90) * factor * Math.pow(0.72, own) * Math.pow(1.18, opp);
  }

  step(): StepResult {
    this.steps++;
    const { rng } = this.ctx;
    switch (this.phase) {
      case 'HT':
        this.phase = '2H';
        this.halfMinute = 0;
        this.stoppage = 0;
        return { next: MINUTE };
      case 'ET_BREAK':
        this.phase = 'ET1';
        this.halfMinute = 0;
        this.stoppage = 0;
        return { next: MINUTE };
      case 'ET_HT':
        this.phase = 'ET2';
        this.halfMinute = 0;
        this.stoppage = 0;
        return { next: MINUTE };
      case 'PEN_BREAK':
        this.phase = 'PEN';
        return { next: MINUTE };
      case 'PEN':
        return this.penaltyKick();
      case 'END':
        return { next: MINUTE };
      default:
        break;
    }
    this.halfMinute++;
    const len = this.halfLength();
    const factor = minuteFactor(this.halfMinute, len);
    let lockMs: number | undefined;
    for (const side of [0, 1] as const) {
      const goals = rng.poisson(this.ratePerMinute(side, factor));
      for (let g = 0; g < goals; g++) {
        this.goal(side);
        lockMs = rng.int(30, 60) * 1000;
      }
      this.corners[side] += rng.poisson((5 / 90) * factor);
    }
    const reds = this.squads[0].reds + this.squads[1].reds;
    this.playerMinute();
    // A red card is reviewed and changes the game: the book locks as for a goal (no extra draw, so
    // the game itself plays exactly as before).
    if (lockMs === undefined && rng.chance(0.05)) lockMs = rng.int(5, 15) * 1000;
    if (this.squads[0].reds + this.squads[1].reds > reds) lockMs = Math.max(lockMs ?? 0, RED_CARD_LOCK_MS);
    if (this.halfMinute === len)
      this.stoppage =
        this.phase === '1H'
          ? rng.int(...STOPPAGE_1H)
          : this.phase === '2H'
            ? rng.int(...STOPPAGE_2H)
            : rng.int(...STOPPAGE_ET);
    if (this.halfMinute >= len + this.stoppage && this.halfMinute >= len) this.endHalf();
    const next = this.untilNextStep();
    return lockMs === undefined ? { next } : { next, lockMs };
  }

  /** A minute of play, or the length of the break that just began. */
  private untilNextStep(): number {
    switch (this.phase) {
      case 'HT':
        return 15 * MINUTE;
      case 'ET_BREAK':
        return 5 * MINUTE;
      case 'PEN_BREAK':
        return 3 * MINUTE;
      default:
        return MINUTE;
    }
  }

  private goal(side: 0 | 1): void {
    const { rng } = this.ctx;
    this.goals[this.half()][side]++;
    const squad = this.squads[side];
    const field = onPitch(squad);
    const scorer = pickWeighted(rng, field, goalWeight);
    if (scorer) {
      scorer.counters.goals++;
      scorer.counters.shots++;
      scorer.counters.shots_on_target++;
      if (rng.chance(0.72)) {
        const assister = pickWeighted(
          rng,
          field.filter((p) => p !== scorer),
          assistWeight,
        );
        if (assister) assister.counters.assists++;
      }
    }
  }

  private playerMinute(): void {
    const { rng } = this.ctx;
    for (const squad of this.squads) {
      for (const p of squad.players) {
        if (!p.onPitch) continue;
        p.counters.minutes++;
        const shots = rng.poisson(ratePer90(p, 'shots') / 90);
        p.counters.shots += shots;
        for (let i = 0; i < shots; i++) if (rng.chance(0.33)) p.counters.shots_on_target++;
        p.counters.passes += rng.poisson(ratePer90(p, 'passes') / 90);
        p.counters.tackles += rng.poisson(ratePer90(p, 'tackles') / 90);
        p.counters.fouls += rng.poisson(ratePer90(p, 'fouls') / 90);
        if (rng.chance(ratePer90(p, 'cards') / 90)) this.book(squad, p);
        else if (rng.chance(STRAIGHT_RED)) this.sendOff(squad, p);
      }
      const late =
        this.phase === '2H' ? this.halfMinute > SUB_FROM_MINUTE : this.phase === 'ET1' || this.phase === 'ET2';
      if (late && rng.chance(this.phase === '2H' ? SUB_CHANCE_2H : SUB_CHANCE_ET)) substitute(rng, squad);
    }
  }

  private book(squad: Squad, p: SquadPlayer): void {
    p.counters.cards++;
    if (p.counters.cards >= 2) this.sendOff(squad, p);
  }

  private sendOff(squad: Squad, p: SquadPlayer): void {
    p.counters.red_cards++;
    p.onPitch = false;
    p.done = true;
    squad.reds++;
  }

  private level(): boolean {
    const [h, a] = this.total();
    return h === a;
  }

  private endHalf(): void {
    // The final whistle stops the clock where it stood (90:00 plus the time added), never back at 90:00.
    if (this.phase === '2H' || this.phase === 'ET2') this.finalClock = this.clockSeconds();
    switch (this.phase) {
      case '1H':
        this.phase = 'HT';
        break;
      case '2H':
        this.phase = this.knockout && this.level() ? 'ET_BREAK' : 'END';
        if (this.phase === 'ET_BREAK') this.etStarted = true;
        break;
      case 'ET1':
        this.phase = 'ET_HT';
        break;
      case 'ET2':
        this.phase = this.level() ? 'PEN_BREAK' : 'END';
        break;
      default:
        break;
    }
  }

  private penaltyKick(): StepResult {
    const { rng } = this.ctx;
    const side = this.penKicks % 2 === 0 ? 0 : 1;
    if (rng.chance(0.76)) this.pens[side]++;
    this.penKicks++;
    const round = Math.ceil(this.penKicks / 2);
    const [h, a] = this.pens;
    const kicksH = Math.ceil(this.penKicks / 2);
    const kicksA = Math.floor(this.penKicks / 2);
    if (round <= 5) {
      // Decided when one side cannot catch up with its remaining regulation kicks.
      if (h > a + (5 - kicksA) || a > h + (5 - kicksH)) this.phase = 'END';
    } else if (this.penKicks % 2 === 0 && h !== a) this.phase = 'END';
    return { next: MINUTE, lockMs: 20_000 };
  }

  private total(): [number, number] {
    const g = this.goals;
    return [g.h1[0] + g.h2[0] + g.et[0], g.h1[1] + g.h2[1] + g.et[1]];
  }

  private periodName(): string {
    switch (this.phase) {
      case '1H':
      case 'HT':
      case '2H':
        return this.phase;
      case 'PEN_BREAK':
      case 'PEN':
        return 'PEN';
      case 'END':
        return this.penKicks > 0 ? 'PEN' : this.etStarted ? 'ET' : '2H';
      default:
        return 'ET';
    }
  }

  private periodScores(): PeriodScore[] {
    const out: PeriodScore[] = [{ period: '1H', home: this.goals.h1[0], away: this.goals.h1[1] }];
    if (this.phase !== '1H' && this.phase !== 'HT')
      out.push({ period: '2H', home: this.goals.h2[0], away: this.goals.h2[1] });
    if (this.etStarted) out.push({ period: 'ET', home: this.goals.et[0], away: this.goals.et[1] });
    if (this.phase === 'PEN' || this.penKicks > 0) out.push({ period: 'PEN', home: this.pens[0], away: this.pens[1] });
    return out;
  }

  private clockSeconds(): number {
    switch (this.phase) {
      case '1H':
        return this.halfMinute * 60;
      case 'HT':
        return 45 * 60;
      case '2H':
        return (45 + this.halfMinute) * 60;
      case 'ET_BREAK':
        return 90 * 60;
      case 'ET1':
        return (90 + this.halfMinute) * 60;
      case 'ET_HT':
        return 105 * 60;
      case 'ET2':
        return (105 + this.halfMinute) * 60;
      case 'END':
        return this.finalClock ?? (this.etStarted ? 120 : 90) * 60;
      default:
        return (this.etStarted ? 120 : 90) * 60;
    }
  }

  snapshot(): Snapshot {
    const [h, a] = this.total();
    const team = (side: 0 | 1, stat: 'cards' | 'red_cards' | 'shots' | 'shots_on_target'): number =>
      this.squads[side].players.reduce((s, p) => s + p.counters[stat], 0);
    const period = this.periodName();
    const sportData: Record<string, unknown> = {
      period,
      added_time: this.halfMinute >= this.halfLength() ? this.stoppage : 0,
      home_red_cards: this.squads[0].reds,
      away_red_cards: this.squads[1].reds,
      home_corners: this.corners[0],
      away_corners: this.corners[1],
    };
    if (this.penKicks > 0 || this.phase === 'PEN') {
      sportData.home_penalties = this.pens[0];
      sportData.away_penalties = this.pens[1];
    }
    const periods = this.knockout ? ['1H', '2H', 'ET', 'PEN'] : ['1H', '2H'];
    const ps = this.periodScores();
    const cell = (p: string, side: 'home' | 'away'): number => ps.find((x) => x.period === p)?.[side] ?? 0;
    const row = (side: 0 | 1): number[] => {
      const s = side === 0 ? 'home' : 'away';
      return [
        ...periods.map((p) => cell(p, s)),
        side === 0 ? h : a,
        this.corners[side],
        team(side, 'cards'),
        team(side, 'red_cards'),
        team(side, 'shots'),
        team(side, 'shots_on_target'),
      ];
    };
    return {
      score: { home: h, away: a },
      period,
      clock: mmss(this.clockSeconds()),
      periodScores: ps,
      sportData,
      scoreboard: {
        headers: [...periods, 'T', 'Corners', 'Yellow', 'Red', 'Shots', 'On target'],
        home: row(0),
        away: row(1),
      },
    };
  }

  inBreak(): boolean {
    return this.phase === 'HT' || this.phase === 'ET_BREAK' || this.phase === 'ET_HT' || this.phase === 'PEN_BREAK';
  }

  /** Whether the half's time added is announced and at most `minutes` of it are left. */
  private lastMinutes(minutes: number): boolean {
    const len = this.halfLength();
    return this.halfMinute >= len && len + this.stoppage - this.halfMinute <= minutes;
  }

  nearEnd(): boolean {
    if (this.phase === 'PEN') return true;
    // The last two minutes of the time added (known once the half's regulation minutes are played):
    // from the 88th minute on, a minor league's book was withdrawn 7 minutes on average (stoppage
    // time is 2-7 minutes), 6% of the live game with nothing open.
    if (this.phase === '2H') return this.lastMinutes(2) && !(this.knockout && this.level());
    if (this.phase === 'ET2') return this.lastMinutes(2) && !this.level();
    return false;
  }

  finished(): boolean {
    return this.phase === 'END';
  }

  result(): FinalResult {
    const [h, a] = this.total();
    let winner: TeamSide | null = null;
    if (this.penKicks > 0) winner = this.pens[0] > this.pens[1] ? 'home' : 'away';
    return { score: { home: h, away: a }, periodScores: this.periodScores(), winner };
  }

  stats(): PlayerStats[] {
    const out: PlayerStats[] = [];
    for (const squad of this.squads) {
      for (const p of squad.players) {
        if (!p.played) continue;
        const counters: Record<string, number> = {};
        for (const s of SOCCER_STATS) counters[s] = p.counters[s];
        out.push(playerLine(p.player.id, p.player.name, squad.side, counters));
      }
    }
    return out;
  }

  /**
   * Sum of minute factors still to come in a half of `len` minutes at `minute` (0 = not started),
   * `run` of the next minute already played (the clock running between steps).
   */
  private factorLeft(len: number, minute: number, expectedStoppage: number, stoppageKnown: boolean, run = 0): number {
    let sum = 0;
    for (let m = minute + 1; m <= len; m++) sum += minuteFactor(m, len);
    if (minute < len) sum -= run * minuteFactor(minute + 1, len);
    const stoppageLeft = stoppageKnown
      ? Math.max(0, len + this.stoppage - Math.max(minute, len) - (minute >= len ? run : 0))
      : expectedStoppage;
    return sum + stoppageLeft * 1.25;
  }

  /** Expected goals still to come for each side in a half (`et`: both halves of extra time, if played). */
  private remainingGoals(half: Half): [number, number] {
    const known = this.halfMinute >= this.halfLength();
    const run = this.runMinute;
    let f = 0;
    if (half === 'h1') {
      if (this.phase === '1H') f = this.factorLeft(45, this.halfMinute, EXPECTED_STOPPAGE.h1, known, run);
    } else if (half === 'h2') {
      if (this.phase === '1H' || this.phase === 'HT') f = this.factorLeft(45, 0, EXPECTED_STOPPAGE.h2, false);
      else if (this.phase === '2H') f = this.factorLeft(45, this.halfMinute, EXPECTED_STOPPAGE.h2, known, run);
    } else {
      const fullEt = this.factorLeft(15, 0, EXPECTED_STOPPAGE.et, false);
      if (this.phase === 'ET1') f = this.factorLeft(15, this.halfMinute, EXPECTED_STOPPAGE.et, known, run) + fullEt;
      else if (this.phase === 'ET_HT') f = fullEt;
      else if (this.phase === 'ET2') f = this.factorLeft(15, this.halfMinute, EXPECTED_STOPPAGE.et, known, run);
      else if (this.phase === '1H' || this.phase === 'HT' || this.phase === '2H' || this.phase === 'ET_BREAK')
        f = 2 * fullEt;
    }
    return [this.ratePerMinute(0, f), this.ratePerMinute(1, f)];
  }

  /** Chance a knockout game goes to extra time, from the score and the goals still expected in regulation. */
  private extraTimeChance(): number {
    if (!this.knockout || (this.phase !== '1H' && this.phase !== 'HT' && this.phase !== '2H')) return 0;
    const [h, a] = this.total();
    const lh = this.remainingGoals('h1')[0] + this.remainingGoals('h2')[0];
    const la = this.remainingGoals('h1')[1] + this.remainingGoals('h2')[1];
    let level = 0;
    for (let x = 0; x <= 20; x++) level += poissonPmf(lh, x) * poissonPmf(la, x + h - a);
    return Math.round(level * 100) / 100;
  }

  /** Extra-time minutes still to come if it is played (time added at its mean). */
  private remainingExtraMinutes(): number {
    const half = 15 + MEAN_STOPPAGE_ET;
    const inHalf = Math.max(
      0,
      (this.halfMinute >= 15 ? 15 + this.stoppage - this.halfMinute : half - this.halfMinute) - this.runMinute,
    );
    switch (this.phase) {
      case 'ET1':
        return inHalf + half;
      case 'ET_HT':
        return half;
      case 'ET2':
        return inHalf;
      case 'PEN_BREAK':
      case 'PEN':
      case 'END':
        return 0;
      default:
        return 2 * half;
    }
  }

  /** A side's goals expected per minute still to be played, extra time included as likely as it is. */
  private goalsPerMinute(side: 0 | 1): number {
    const et = this.phase === '1H' || this.phase === 'HT' || this.phase === '2H' ? this.extraTimeChance() : 1;
    const goals =
      this.remainingGoals('h1')[side] + this.remainingGoals('h2')[side] + et * this.remainingGoals('et')[side];
    const minutes = this.remainingRegulationMinutes() + et * this.remainingExtraMinutes();
    return minutes > 0 ? goals / minutes : 0;
  }

  private propPlayers(): PropPlayer[] {
    const out: PropPlayer[] = [];
    for (const squad of this.squads) {
      const side = squad.side === 'home' ? 0 : 1;
      const goalsPerMinute = this.goalsPerMinute(side);
      const field = onPitch(squad);
      const weightSum = field.reduce((s, q) => s + goalWeight(q), 0) || 1;
      const assistSum = field.reduce((s, q) => s + assistWeight(q), 0) || 1;
      const minutes = this.squadMinutes(squad);
      for (const p of squad.players) {
        if (p.player.position === 'GK') continue;
        const scoring = goalsPerMinute * (goalWeight(p) / weightSum) * (p.onPitch ? 1 : 1.05);
        const shots = ratePer90(p, 'shots') / 90;
        const outlook: PropOutlook = {
          perMinute: {
            goals: scoring,
            assists: goalsPerMinute * 0.72 * (assistWeight(p) / assistSum),
            // A goal is a shot on target too.
            shots: shots + scoring,
            shots_on_target: shots * 0.33 + scoring,
            passes: ratePer90(p, 'passes') / 90,
            tackles: ratePer90(p, 'tackles') / 90,
            fouls: ratePer90(p, 'fouls') / 90,
            cards: ratePer90(p, 'cards') / 90,
          },
          minutes: p.done
            ? NO_MINUTES
            : coarse(
                p.onPitch
                  ? andSentOff(minutes.onPitch, sentOffChance(p))
                  : (minutes.bench.get(p.player.position) ?? NO_MINUTES),
              ),
        };
        out.push({
          id: p.player.id,
          name: p.player.name,
          side: squad.side,
          counters: p.counters,
          outlook,
          lines: this.propLines.get(p.player.id) ?? NO_PROP_LINES,
        });
      }
    }
    return out;
  }

  /**
   * The clock and substitutions a squad's minutes still to play follow, and the minutes of a bench
   * player by line (a substitution brings on a player of the line of the one taken off, any line if
   * that one's bench is empty). A player on the pitch may be sent off too (`sentOffChance`).
   */
  private squadMinutes(squad: Squad): { onPitch: MinutesDist; bench: Map<string, MinutesDist> } {
    const field = onPitch(squad).filter((p) => p.player.position !== 'GK');
    const waiting = squad.players.filter((p) => !p.played && p.player.position !== 'GK');
    const clock: ClockState = {
      phase: this.phase,
      halfMinute: this.halfMinute,
      stoppage: this.halfMinute >= this.halfLength() ? this.stoppage : null,
      subsLeft: field.length > 0 ? squad.subsLeft : 0,
      outfield: Math.max(1, field.length),
      extraTime: this.extraTimeChance(),
    };
    const count = (ps: SquadPlayer[], pos: string): number => ps.filter((p) => p.player.position === pos).length;
    // Share of substitutions whose line has no one left on the bench: then anyone on it comes on.
    const emptyLines = [...new Set(field.map((p) => p.player.position))].filter((pos) => count(waiting, pos) === 0);
    const emptyShare = emptyLines.reduce((s, pos) => s + count(field, pos), 0) / Math.max(1, field.length);
    const bench = new Map<string, MinutesDist>();
    for (const pos of new Set(waiting.map((p) => p.player.position))) {
      const spot: BenchSpot = {
        lineShare: count(field, pos) / Math.max(1, field.length),
        lineBench: count(waiting, pos),
        other: emptyShare > 0 ? emptyShare / (1 - count(field, pos) / Math.max(1, field.length)) / waiting.length : 0,
      };
      // A substitute's few minutes: a straight red only (a second yellow needs a first).
      bench.set(pos, minutesAhead(clock, spot, STRAIGHT_RED));
    }
    return { onPitch: minutesAhead(clock, null, 0), bench };
  }

  private remainingRegulationMinutes(): number {
    switch (this.phase) {
      case '1H':
        return Math.max(0, 45 - this.halfMinute - this.runMinute) + 45 + EXPECTED_STOPPAGE.h1 + EXPECTED_STOPPAGE.h2;
      case 'HT':
        return 45 + EXPECTED_STOPPAGE.h2;
      case '2H':
        return (
          Math.max(0, 45 - this.halfMinute - this.runMinute) +
          (this.halfMinute >= 45
            ? Math.max(0, 45 + this.stoppage - this.halfMinute - this.runMinute)
            : EXPECTED_STOPPAGE.h2)
        );
      default:
        return 0;
    }
  }

  /**
   * The players' outlook as of the last step: the props move at steps (a minute of a player's
   * counters), the main markets with the clock in between. Worked out once a step, at the step's
   * own state whenever it is first asked for, so a price is a function of the state and time alone.
   */
  private stepPlayers(): { players: PropPlayer[]; props: FairMarket[] } {
    if (this.playersAt?.steps === this.steps) return this.playersAt;
    const run = this.runMinute;
    this.runMinute = 0;
    const players = this.propPlayers();
    const at = { steps: this.steps, players, props: playerPropMarkets({ players }) };
    this.runMinute = run;
    // Kept only once the game is under way (priced every few seconds); a game waiting for its
    // kick-off is priced a few times a day and would hold ~0.5 MB of props for nothing.
    if (this.steps > 0) this.playersAt = at;
    return at;
  }

  /** The state the book is priced from; players (their props' outlook) only where the book has props. */
  pricingState(depth: MarketDepth = 'full'): SoccerPricingState {
    const props = depth === 'full' && this.ctx.league.tier === 1 ? this.stepPlayers() : null;
    return {
      names: this.ctx.names,
      tier: this.ctx.league.tier,
      knockout: this.knockout,
      phase: this.phase,
      goals: { h1: [...this.goals.h1], h2: [...this.goals.h2], et: [...this.goals.et] },
      remaining: { h1: this.remainingGoals('h1'), h2: this.remainingGoals('h2'), et: this.remainingGoals('et') },
      pens: [...this.pens],
      penKicks: this.penKicks,
      // Player props are in tier-1 full books only (soccerMarkets): the outlook is not worked out for others.
      players: props?.players ?? [],
      ...(props !== null ? { props: props.props } : {}),
    };
  }

  clockRunning(): boolean {
    return this.inPlay();
  }

  /**
   * `sinceStepMs` into the minute under way, the clock has run that much of it: each minute's play
   * is drawn at its end (its step), so a price between two steps takes the minute's goals as spread
   * over it, as a feed tells a goal a little after it happens (docs/simulator.md, "Prices").
   */
  markets(depth: MarketDepth, sinceStepMs = 0): FairMarket[] {
    this.runMinute = this.inPlay() ? Math.min(1, Math.max(0, sinceStepMs / MINUTE)) : 0;
    try {
      return soccerMarkets(this.pricingState(depth), depth);
    } finally {
      this.runMinute = 0;
    }
  }
}
