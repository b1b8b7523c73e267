// A league season as a light model: round-robin matchdays, a points table, a player race, Monte Carlo prices.
import { Rng } from '../rng.js';
import type { SimTeam } from '../world.js';
import { addPlaceShares, placeShares } from './dead-heat.js';
import type { FairTable, FinalTable, MarketKind, TournamentModel } from './model.js';
import type { RacePlan, SportModel } from './plans.js';
import { logistic, matchRate, poissonSampler, racersOf, type Racer } from './race.js';

const HOME_ADVANTAGE = 0.2;

export interface LeagueSeasonOptions {
  seed: number;
  /** Tournament id: names the random streams of this season. */
  id: string;
  teams: readonly SimTeam[];
  model: SportModel;
  rounds: number;
  top: number;
  relegation: number;
  race: RacePlan | null;
}

export class LeagueSeason implements TournamentModel {
  readonly entrants: number[];
  readonly racers: Racer[];
  private readonly n: number;
  /** Circle-method order of the teams for this season. */
  private readonly order: number[];
  /** Drawing of lots: the last tie-breaker after points and margin (lower is better). */
  private readonly lot: number[];
  private readonly racersOfTeam: number[][];
  private readonly points: number[];
  private readonly margin: number[];
  private readonly counts: number[];
  private playedRounds = 0;

  constructor(private readonly o: LeagueSeasonOptions) {
    const teams = o.teams;
    this.n = teams.length;
    const all = teams.map((_, i) => i);
    this.entrants = [...all].sort((a, b) => teams[b]!.rating - teams[a]!.rating || a - b);
    this.order = Rng.derive(o.seed, 'outright-order', o.id).shuffle([...all]);
    const lots = Rng.derive(o.seed, 'outright-lot', o.id).shuffle([...all]);
    this.lot = new Array<number>(this.n);
    lots.forEach((team, rank) => (this.lot[team] = rank));
    this.racers = o.race === null ? [] : racersOf(teams, all, o.race);
    this.racersOfTeam = all.map(() => []);
    this.racers.forEach((r, i) => this.racersOfTeam[r.team]!.push(i));
    this.points = all.map(() => 0);
    this.margin = all.map(() => 0);
    this.counts = this.racers.map(() => 0);
  }

  get played(): number {
    return this.playedRounds;
  }

  /** The games of round `j` as [home, away] (circle method; the second half of the season swaps venues). */
  pairings(j: number): Array<[number, number]> {
    const ids = this.n % 2 === 0 ? [...this.order] : [...this.order, -1];
    const m = ids.length - 1;
    const r = j % m;
    const swap = Math.floor(j / m) % 2 === 1;
    const rot = ids.slice(1);
    const rotated = [...rot.slice(r), ...rot.slice(0, r)];
    const line = [ids[0]!, ...rotated];
    const out: Array<[number, number]> = [];
    for (let i = 0; i < line.length / 2; i++) {
      const a = line[i]!;
      const b = line[line.length - 1 - i]!;
      if (a < 0 || b < 0) continue;
      const aHome = ((i + r) % 2 === 0) !== swap;
      out.push(aHome ? [a, b] : [b, a]);
    }
    return out;
  }

  /** Chance that the home side wins a game that is not drawn. */
  private homeWins(h: number, a: number): number {
    const t = this.o.teams;
    return logistic(this.o.model.k * (t[h]!.rating - t[a]!.rating + HOME_ADVANTAGE));
  }

  advanceTo(rounds: number): void {
    const target = Math.min(rounds, this.o.rounds);
    for (; this.playedRounds < target; this.playedRounds++) this.playRound(this.playedRounds);
  }

  private playRound(j: number): void {
    const rng = Rng.derive(this.o.seed, 'outright-round', this.o.id, j);
    const { model, teams } = this.o;
    for (const [h, a] of this.pairings(j)) {
      const u = rng.next();
      const by = 1 + rng.int(0, 2);
      if (u < model.drawRate) {
        this.points[h]! += model.draw;
        this.points[a]! += model.draw;
      } else {
        const homeWin = (u - model.drawRate) / (1 - model.drawRate) < this.homeWins(h, a);
        const [w, l] = homeWin ? [h, a] : [a, h];
        this.points[w]! += model.win;
        this.margin[w]! += by;
        this.margin[l]! -= by;
      }
      for (const [own, opp] of [
        [h, a],
        [a, h],
      ] as const) {
        for (const i of this.racersOfTeam[own]!) {
          this.counts[i]! += rng.poisson(matchRate(this.racers[i]!, teams[own]!, teams[opp]!));
        }
      }
    }
  }

  /** Tie-breakers after points: margin, then the lots. */
  private tieBreak(i: number): number {
    return this.margin[i]! * 1e-3 - this.lot[i]! * 1e-6;
  }

  fair(sims: number, rng: Rng): FairTable {
    const { model, rounds, top, relegation } = this.o;
    const n = this.n;
    // Remaining points of each team: each game's mean and variance summed, drawn as a clamped normal.
    const mean = new Float64Array(n);
    const variance = new Float64Array(n);
    const games = new Float64Array(n);
    for (let j = this.playedRounds; j < rounds; j++) {
      for (const [h, a] of this.pairings(j)) {
        const pHome = (1 - model.drawRate) * this.homeWins(h, a);
        const pAway = 1 - model.drawRate - pHome;
        for (const [i, w] of [
          [h, pHome],
          [a, pAway],
        ] as const) {
          const mu = model.win * w + model.draw * model.drawRate;
          const e2 = model.win * model.win * w + model.draw * model.draw * model.drawRate;
          mean[i]! += mu;
          variance[i]! += e2 - mu * mu;
          games[i]! += 1;
        }
      }
    }
    const winner = new Float64Array(n);
    const topN = new Float64Array(n);
    const down = new Float64Array(n);
    const value = new Float64Array(n);
    const sd = variance.map(Math.sqrt);
    const tieBreak = Float64Array.from({ length: n }, (_, i) => this.tieBreak(i));
    const best = new Ends(Math.max(1, top), 1);
    const worst = new Ends(relegation, -1);
    for (let s = 0; s < sims; s++) {
      for (let i = 0; i < n; i++) {
        const extra = Math.min(games[i]! * model.win, Math.max(0, rng.normal(mean[i]!, sd[i]!)));
        value[i] = this.points[i]! + extra + tieBreak[i]!;
      }
      best.collect(value);
      worst.collect(value);
      winner[best.at(0)]! += 1;
      for (let q = 0; q < top; q++) topN[best.at(q)]! += 1;
      for (let q = 0; q < relegation; q++) down[worst.at(q)]! += 1;
    }
    const table: FairTable = { winner: scale(winner, sims) };
    if (top > 0) table.top = scale(topN, sims);
    if (relegation > 0) table.relegation = scale(down, sims);
    Object.assign(table, this.raceFair(sims, rng, games));
    return table;
  }

  private raceFair(sims: number, rng: Rng, games: Float64Array): FairTable {
    const race = this.o.race;
    if (race === null || this.racers.length === 0) return {};
    const samplers = this.racers.map((r) => poissonSampler(r.rate * games[r.team]!));
    const one = new Float64Array(this.racers.length);
    const some = new Float64Array(this.racers.length);
    const values = new Array<number>(this.racers.length).fill(0);
    for (let s = 0; s < sims; s++) {
      for (let i = 0; i < values.length; i++) values[i] = this.counts[i]! + samplers[i]!(rng);
      addPlaceShares(values, 1, one);
      if (race.top !== undefined) addPlaceShares(values, race.top.places, some);
    }
    const out: FairTable = { race: scale(one, sims) };
    if (race.top !== undefined) out.race_top = scale(some, sims);
    return out;
  }

  /** Final table order: points, then margin, then lots. */
  standings(): number[] {
    return Array.from({ length: this.n }, (_, i) => i).sort(
      (a, b) => this.points[b]! - this.points[a]! || this.margin[b]! - this.margin[a]! || this.lot[a]! - this.lot[b]!,
    );
  }

  final(): FinalTable {
    const order = this.standings();
    const { top, relegation, race } = this.o;
    const whole = (teams: number[]): Array<{ index: number; factor: number }> =>
      teams.map((index) => ({ index, factor: 1 }));
    const table: FinalTable = { winner: whole(order.slice(0, 1)) };
    if (top > 0) table.top = whole(order.slice(0, top));
    if (relegation > 0) table.relegation = whole(order.slice(this.n - relegation));
    if (race !== null && this.racers.length > 0) {
      table.race = placeShares(this.counts, 1);
      if (race.top !== undefined) table.race_top = placeShares(this.counts, race.top.places);
    }
    return table;
  }

  /**
   * Teams out of reach on points alone (ties may still go either way, so they are not counted): the
   * winner when the leader has more than a team can still reach, a top-N place when N teams have,
   * and relegation, from which a team is safe once enough teams cannot climb to its points.
   */
  eliminated(kind: MarketKind): ReadonlySet<number> {
    const out = new Set<number>();
    if (kind !== 'winner' && kind !== 'top' && kind !== 'relegation') return out;
    const games = new Array<number>(this.n).fill(0);
    for (let j = this.playedRounds; j < this.o.rounds; j++) {
      for (const [h, a] of this.pairings(j)) {
        games[h]! += 1;
        games[a]! += 1;
      }
    }
    const most = this.points.map((p, i) => p + games[i]! * this.o.model.win);
    for (let i = 0; i < this.n; i++) {
      if (kind === 'relegation') {
        let below = 0;
        for (let j = 0; j < this.n; j++) if (j !== i && most[j]! < this.points[i]!) below++;
        if (below >= this.o.relegation) out.add(i);
        continue;
      }
      const places = kind === 'winner' ? 1 : this.o.top;
      let ahead = 0;
      for (let j = 0; j < this.n; j++) if (j !== i && this.points[j]! > most[i]!) ahead++;
      if (ahead >= places) out.add(i);
    }
    return out;
  }

  /** Points and counters so far (tests and diagnostics). */
  snapshot(): { points: readonly number[]; counts: readonly number[] } {
    return { points: [...this.points], counts: [...this.counts] };
  }
}

/** The `size` highest (sign 1) or lowest (sign -1) entries of an array, by insertion: the ends of a table. */
class Ends {
  private readonly idx: Int32Array;
  private readonly key: Float64Array;

  constructor(
    private readonly size: number,
    private readonly sign: 1 | -1,
  ) {
    this.idx = new Int32Array(size);
    this.key = new Float64Array(size);
  }

  collect(value: Float64Array): void {
    const { size, sign, idx, key } = this;
    if (size === 0) return;
    let count = 0;
    for (let i = 0; i < value.length; i++) {
      const v = sign * value[i]!;
      if (count === size && v <= key[size - 1]!) continue;
      let p = count < size ? count++ : size - 1;
      while (p > 0 && key[p - 1]! < v) {
        key[p] = key[p - 1]!;
        idx[p] = idx[p - 1]!;
        p--;
      }
      key[p] = v;
      idx[p] = i;
    }
  }

  /** Index of the q-th entry (0: the highest, or the lowest). */
  at(q: number): number {
    return this.idx[q]!;
  }
}

function scale(a: Float64Array, sims: number): Float64Array {
  return a.map((x) => x / sims);
}
