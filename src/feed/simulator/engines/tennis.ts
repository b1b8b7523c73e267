// Tennis: point by point with serve, games, tie-breaks at 6-6 and sets (best of 3 or 5); priced by exact recursion.
import { ASIAN_HANDICAP, SET_BETTING, SET_WINNER, TOTALS } from '../../../domain/families/index.js';
import type { PeriodScore } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import { Dist } from '../pricing/dist.js';
import { asianHandicap, key, moneyline, totals } from '../pricing/families.js';
import { decidedIfCertain, fair, type FairMarket } from '../pricing/fair.js';
import { matchOutlook, setWin, type MatchOutlook, type ServeProbs, type SetState } from '../pricing/tennis.js';
import {
  playerLine,
  type EngineContext,
  type FinalResult,
  type MarketDepth,
  type MatchEngine,
  type Snapshot,
  type StepResult,
} from './types.js';

const POINT_MS = 40_000;
const CHANGEOVER_MS = 90_000;
const SET_BREAK_MS = 120_000;
const GAME_SCORES = ['0', '15', '30', '40'];
/**
 * Form on the day: how much better than their ratings say the home player serves, and the away
 * player worse (a serve-point edge), drawn once a match and unknown to the book, which prices over
 * its possible values weighed by the points played so far. Players have good and bad days: with it
 * a match ends in straight sets as often as on the tours (~65%) while prematch favourites are as
 * short as real books make them (~5% at 1.05 or shorter, ~18% at 1.15, docs/simulator.md); without
 * it, the rating gap that gave the straight sets made 18% and 35% of favourites that short.
 */
export const FORM_SD = 0.04;
/** The book's values of the form (in FORM_SD, ±3) and their prior weights (a normal's). */
const FORM_NODES: ReadonlyArray<{ z: number; w: number }> = (() => {
  const zs = Array.from({ length: 9 }, (_, i) => -3 + 0.75 * i);
  const ws = zs.map((z) => Math.exp((-z * z) / 2));
  const sum = ws.reduce((a, b) => a + b, 0);
  return zs.map((z, i) => ({ z, w: ws[i]! / sum }));
})();
/** Posterior weights below this are left out of the price (a few matchOutlook calls saved). */
const MIN_WEIGHT = 1e-5;
const clampServe = (p: number): number => Math.min(0.95, Math.max(0.3, p));

export class TennisEngine implements MatchEngine {
  /** The serve as played (the ratings and the day's form). */
  private readonly sp: ServeProbs;
  /** The home side's serve-point edge from the ratings alone (what the book knows before a point). */
  private readonly edge: number;
  /** Points on each side's serve, [home serving, away serving], each [won by the server, lost]. */
  private readonly served: [[number, number], [number, number]] = [
    [0, 0],
    [0, 0],
  ];
  private readonly bestOf: number;
  private readonly sets: Array<[number, number]> = [[0, 0]];
  private points: [number, number] = [0, 0];
  private homeServing: boolean;
  private tiebreak = false;
  private tbHomeFirst = true;
  private setBreak = false;
  private over = false;
  private readonly counters = [
    { aces: 0, double_faults: 0, points_won: 0 },
    { aces: 0, double_faults: 0, points_won: 0 },
  ];
  private readonly lines: { games: number[]; handicap: number[] };

  constructor(private readonly ctx: EngineContext) {
    // Serve-point edge per rating point: at 0.022 only 58% of best-of-3 matches ended in straight
    // sets (Tennis Abstract: 63-67%); 0.03 gave ~62% but made 18% of favourites 1.05 or shorter. With
    // the day's form (FORM_SD) 0.028 gives ~67% straight sets, ~16% of sets to a tie-break and ~5%
    // of favourites at 1.05 or shorter.
    this.edge = (ctx.home.rating - ctx.away.rating) * 0.028;
    this.bestOf = ctx.league.plan.format?.bestOf ?? 3;
    this.homeServing = ctx.rng.chance(0.5);
    this.sp = this.serveAt(FORM_SD * ctx.rng.normal());
    const o = this.outlook([0, 0], [0, 0], this.setState()).match;
    const meanGames = o.totalGames.reduce((s, p, g) => s + p * g, 0);
    let meanMargin = 0;
    o.gameMargin.forEach((p, i) => {
      meanMargin += p * (i - o.marginOffset);
    });
    const c = Math.floor(meanGames) + 0.5;
    const m = -Math.round(meanMargin) + 0.5;
    this.lines = { games: [c - 2, c, c + 2], handicap: [m - 2, m, m + 2] };
  }

  /** The serve with the home side `form` better on the day than the ratings say. */
  private serveAt(form: number): ServeProbs {
    return { home: clampServe(0.63 + this.edge + form), away: clampServe(0.63 - this.edge - form) };
  }

  /**
   * The serves the book weighs, each with its chance given the points played: a form value's prior
   * times the likelihood of the serve points won and lost on each side.
   */
  private formMixture(): Array<{ sp: ServeProbs; w: number }> {
    const [[hw, hl], [aw, al]] = this.served;
    const logs = FORM_NODES.map(({ z, w }) => {
      const sp = this.serveAt(FORM_SD * z);
      const ll =
        hw * Math.log(sp.home) + hl * Math.log(1 - sp.home) + aw * Math.log(sp.away) + al * Math.log(1 - sp.away);
      return { sp, l: Math.log(w) + ll };
    });
    const top = Math.max(...logs.map((x) => x.l));
    const weighted = logs.map(({ sp, l }) => ({ sp, w: Math.exp(l - top) }));
    const sum = weighted.reduce((s, x) => s + x.w, 0);
    return weighted.map((x) => ({ sp: x.sp, w: x.w / sum })).filter((x) => x.w >= MIN_WEIGHT);
  }

  /**
   * The match as the book sees it: the outlook at each form value it weighs, mixed by their weights
   * (distributions mix exactly), and the chance the home player wins the set in progress and a
   * fresh one (for the set-winner markets; only when `sets` is asked).
   */
  private outlook(
    won: [number, number],
    gamesSoFar: [number, number],
    st: SetState,
    sets = false,
  ): { match: MatchOutlook; setNow: number; setFresh: number } {
    let match: MatchOutlook | null = null;
    let setNow = 0;
    let setFresh = 0;
    const mixture = this.formMixture();
    const total = mixture.reduce((s, x) => s + x.w, 0);
    for (const { sp, w: raw } of mixture) {
      const w = raw / total;
      const o = matchOutlook(sp, this.bestOf, won, gamesSoFar, st);
      if (match === null) {
        match = {
          pHome: 0,
          sets: new Map(),
          totalGames: new Float64Array(o.totalGames.length),
          gameMargin: new Float64Array(o.gameMargin.length),
          marginOffset: o.marginOffset,
        };
      }
      match.pHome += w * o.pHome;
      for (const [k, p] of o.sets) match.sets.set(k, (match.sets.get(k) ?? 0) + w * p);
      for (let i = 0; i < o.totalGames.length; i++) match.totalGames[i]! += w * o.totalGames[i]!;
      for (let i = 0; i < o.gameMargin.length; i++) match.gameMargin[i]! += w * o.gameMargin[i]!;
      if (sets) {
        setNow += w * setWin(sp, st);
        setFresh +=
          (w *
            (setWin(sp, { games: [0, 0], homeServing: true, points: [0, 0], tiebreak: false, tbHomeFirst: true }) +
              setWin(sp, { games: [0, 0], homeServing: false, points: [0, 0], tiebreak: false, tbHomeFirst: false }))) /
          2;
      }
    }
    return { match: match!, setNow, setFresh };
  }

  expectedDurationMs(): number {
    return (this.bestOf === 5 ? 3.3 : 2.2) * 40 * 60_000;
  }

  private setState(): SetState {
    const g = this.sets[this.sets.length - 1]!;
    return {
      games: [g[0], g[1]],
      homeServing: this.homeServing,
      points: [...this.points],
      tiebreak: this.tiebreak,
      tbHomeFirst: this.tbHomeFirst,
    };
  }

  private setsWon(): [number, number] {
    let h = 0;
    let a = 0;
    this.sets.forEach(([gh, ga], i) => {
      const finished = i < this.sets.length - 1 || this.over;
      if (!finished) return;
      if (gh > ga) h++;
      else if (ga > gh) a++;
    });
    return [h, a];
  }

  begin(): number {
    return POINT_MS;
  }

  step(): StepResult {
    const { rng } = this.ctx;
    if (this.over) return { next: 60_000 };
    if (this.setBreak) {
      this.setBreak = false;
      this.sets.push([0, 0]);
      return { next: POINT_MS };
    }
    const serverIdx = this.tiebreak
      ? (this.points[0] + this.points[1] === 0 || Math.floor((this.points[0] + this.points[1] - 1) / 2) % 2 === 1) ===
        this.tbHomeFirst
        ? 0
        : 1
      : this.homeServing
        ? 0
        : 1;
    const pServer = serverIdx === 0 ? this.sp.home : this.sp.away;
    let winner: 0 | 1;
    if (rng.chance(0.035)) {
      winner = (1 - serverIdx) as 0 | 1;
      this.counters[serverIdx]!.double_faults++;
    } else if (rng.chance(0.08 * (pServer / 0.63))) {
      winner = serverIdx as 0 | 1;
      this.counters[serverIdx]!.aces++;
    } else winner = (rng.chance((pServer - 0.08) / 0.885) ? serverIdx : 1 - serverIdx) as 0 | 1;
    this.counters[winner]!.points_won++;
    this.served[serverIdx]![winner === serverIdx ? 0 : 1]++;
    this.points[winner]++;
    return this.afterPoint();
  }

  private afterPoint(): StepResult {
    const [h, a] = this.points;
    const set = this.sets[this.sets.length - 1]!;
    if (this.tiebreak) {
      if ((h >= 7 || a >= 7) && Math.abs(h - a) >= 2) {
        set[h > a ? 0 : 1]++;
        this.tiebreak = false;
        this.points = [0, 0];
        // The player who received first in the tie-break serves the next game.
        this.homeServing = !this.tbHomeFirst;
        return this.endSet();
      }
      const next = (h + a) % 6 === 0 ? CHANGEOVER_MS / 3 : POINT_MS;
      return this.matchPoint(0) || this.matchPoint(1) ? { next, lockMs: 8_000 } : { next };
    }
    if ((h >= 4 || a >= 4) && Math.abs(h - a) >= 2) {
      set[h > a ? 0 : 1]++;
      this.points = [0, 0];
      this.homeServing = !this.homeServing;
      const [gh, ga] = set;
      if ((gh >= 6 || ga >= 6) && Math.abs(gh - ga) >= 2) return this.endSet();
      if (gh === 7 || ga === 7) return this.endSet();
      if (gh === 6 && ga === 6) {
        this.tiebreak = true;
        this.tbHomeFirst = this.homeServing;
      }
      return { next: (gh + ga) % 2 === 1 ? CHANGEOVER_MS : 25_000 + POINT_MS };
    }
    // A break point or a match point is a dangerous moment: prices pause for a few seconds.
    const serverPts = this.homeServing ? h : a;
    const receiverPts = this.homeServing ? a : h;
    if (receiverPts >= 3 && receiverPts > serverPts) return { next: POINT_MS, lockMs: 8_000 };
    if (this.matchPoint(0) || this.matchPoint(1)) return { next: POINT_MS, lockMs: 8_000 };
    return { next: POINT_MS };
  }

  private endSet(): StepResult {
    const need = Math.floor(this.bestOf / 2) + 1;
    const won = this.setsWonIncludingCurrent();
    if (won[0] >= need || won[1] >= need) {
      this.over = true;
      return { next: 60_000 };
    }
    this.setBreak = true;
    return { next: SET_BREAK_MS };
  }

  private setsWonIncludingCurrent(): [number, number] {
    let h = 0;
    let a = 0;
    for (const [gh, ga] of this.sets) {
      const done = (gh >= 6 || ga >= 6) && (Math.abs(gh - ga) >= 2 || gh === 7 || ga === 7);
      if (!done) continue;
      if (gh > ga) h++;
      else a++;
    }
    return [h, a];
  }

  private gameScore(i: 0 | 1): string {
    const [h, a] = this.points;
    const mine = i === 0 ? h : a;
    const theirs = i === 0 ? a : h;
    if (this.tiebreak) return String(mine);
    if (mine >= 3 && theirs >= 3) return mine > theirs ? 'AD' : '40';
    return GAME_SCORES[Math.min(mine, 3)]!;
  }

  private periodScores(): PeriodScore[] {
    return this.sets.map(([h, a], i) => ({ period: `S${i + 1}`, home: h, away: a }));
  }

  snapshot(): Snapshot {
    const [sh, sa] = this.setsWonIncludingCurrent();
    const cols = Array.from({ length: this.bestOf }, (_, i) => `S${i + 1}`);
    const row = (side: 0 | 1): number[] => [...cols.map((_, i) => this.sets[i]?.[side] ?? 0), side === 0 ? sh : sa];
    const serving = this.tiebreak ? null : this.homeServing;
    const tbServerHome =
      (this.points[0] + this.points[1] === 0 || Math.floor((this.points[0] + this.points[1] - 1) / 2) % 2 === 1) ===
      this.tbHomeFirst;
    const homeServes = serving ?? tbServerHome;
    return {
      score: { home: sh, away: sa },
      period: `S${this.sets.length}`,
      clock: null,
      periodScores: this.periodScores(),
      sportData: {
        home_serving: homeServes,
        away_serving: !homeServes,
        home_game_score: this.gameScore(0),
        away_game_score: this.gameScore(1),
        is_tiebreak: this.tiebreak,
      },
      scoreboard: { headers: [...cols, 'Sets'], home: row(0), away: row(1) },
    };
  }

  inBreak(): boolean {
    return this.setBreak;
  }

  /**
   * Never: a minor tier's book is withdrawn for good once its game is near the end (SimGame), and a
   * tennis match has no such moment — a match point saved can lead to another set. "Serving for the
   * match" (the old rule) withdrew tier-3 books with 30-70% of the match still to play. Match points
   * lock the book briefly instead (afterPoint), as books do.
   */
  nearEnd(): boolean {
    return false;
  }

  /** `side` is one point from the match. */
  private matchPoint(side: 0 | 1): boolean {
    const need = Math.floor(this.bestOf / 2) + 1;
    if (this.setsWonIncludingCurrent()[side] !== need - 1) return false;
    const other = side === 0 ? 1 : 0;
    const mine = this.points[side];
    const theirs = this.points[other];
    if (this.tiebreak) return mine >= 6 && mine > theirs;
    const games = this.sets[this.sets.length - 1]!;
    const after = games[side] + 1;
    const winsSet = (after >= 6 && after - games[other] >= 2) || after === 7;
    return winsSet && mine >= 3 && mine > theirs;
  }

  finished(): boolean {
    return this.over;
  }

  result(): FinalResult {
    const [h, a] = this.setsWonIncludingCurrent();
    return { score: { home: h, away: a }, periodScores: this.periodScores(), winner: null };
  }

  stats(): PlayerStats[] {
    const sides = [this.ctx.home, this.ctx.away] as const;
    return sides.map((team, i) =>
      playerLine(team.players[0]!.id, team.players[0]!.name, i === 0 ? 'home' : 'away', {
        ...this.counters[i]!,
        sets_won: this.setsWonIncludingCurrent()[i]!,
      }),
    );
  }

  markets(depth: MarketDepth): FairMarket[] {
    const names = this.ctx.names;
    const won = this.setsWonIncludingCurrent();
    const finished = this.sets.slice(0, -1);
    const gamesSoFar: [number, number] = [
      finished.reduce((s, g) => s + g[0], 0),
      finished.reduce((s, g) => s + g[1], 0),
    ];
    const st: SetState = this.setBreak
      ? { games: [0, 0], homeServing: this.homeServing, points: [0, 0], tiebreak: false, tbHomeFirst: this.homeServing }
      : this.setState();
    if (this.setBreak) {
      const last = this.sets[this.sets.length - 1]!;
      gamesSoFar[0] += last[0];
      gamesSoFar[1] += last[1];
    }
    const full = depth === 'full';
    const { match: o, setNow, setFresh } = this.outlook(won, gamesSoFar, st, full);
    const out: FairMarket[] = [moneyline(names, o.pHome)];
    const need = Math.floor(this.bestOf / 2) + 1;
    const codes: string[] = [];
    for (let l = 0; l < need; l++) codes.push(`${need}-${l}`);
    for (let w = need - 1; w >= 0; w--) codes.push(`${w}-${need}`);
    out.push(
      decidedIfCertain(
        fair(
          key(SET_BETTING.key),
          SET_BETTING.name,
          codes.map((c) => ({ code: c, label: c, side: null, p: o.sets.get(c) ?? 0 })),
        ),
      ),
    );
    const total = new Dist(0, o.totalGames);
    const margin = new Dist(-o.marginOffset, o.gameMargin);
    for (const line of full ? this.lines.games : [this.lines.games[1]!])
      out.push(totals(total, line, null, null, TOTALS.key, 'Total Games'));
    for (const line of full ? this.lines.handicap : [this.lines.handicap[1]!])
      out.push(asianHandicap(names, margin, line, null, null, ASIAN_HANDICAP.key, 'Game Handicap'));
    if (!full) return out;
    const currentSet = this.setBreak ? this.sets.length + 1 : this.sets.length;
    for (let n = 1; n <= this.bestOf; n++) {
      const decided = n < currentSet || (this.over && n === currentSet);
      const p = decided ? 0.5 : n === currentSet ? setNow : setFresh;
      const m = moneyline(names, p, `s${n}`, `Set ${n}`, SET_WINNER.key);
      out.push(decided ? { ...m, decided: true } : m);
    }
    return out;
  }
}
