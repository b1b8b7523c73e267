// A knockout event as a light model: a seeded draw, rounds of single matches, exact bracket odds, a player race.
import { Rng } from '../rng.js';
import type { SimTeam } from '../world.js';
import { addPlaceShares, placeShares } from './dead-heat.js';
import type { FairTable, FinalTable, MarketKind, TournamentModel } from './model.js';
import type { RacePlan, SportModel } from './plans.js';
import { logistic, matchRate, poissonSampler, racersOf, type Racer } from './race.js';

export interface KnockoutOptions {
  seed: number;
  /** Tournament id: names the random streams of this event. */
  id: string;
  teams: readonly SimTeam[];
  model: SportModel;
  drawSize: number;
  race: RacePlan | null;
}

export class Knockout implements TournamentModel {
  readonly entrants: number[];
  readonly racers: Racer[];
  /** Competitors left after each round: alive[0] is the draw in bracket order. */
  private readonly alive: number[][];
  private readonly rounds: number;
  private readonly racersOfTeam = new Map<number, number[]>();
  private readonly counts: number[];
  /** Position of each entrant in `entrants`, and the chance that one beats another (by positions). */
  private readonly position = new Map<number, number>();
  private readonly winChance: Float64Array;

  constructor(private readonly o: KnockoutOptions) {
    const teams = o.teams;
    // The best by rating, with some form noise, make the draw; their positions in the bracket are drawn.
    const rng = Rng.derive(o.seed, 'outright-draw', o.id);
    const form = teams.map((t) => t.rating + rng.normal(0, 0.5));
    const field = teams
      .map((_, i) => i)
      .sort((a, b) => form[b]! - form[a]! || a - b)
      .slice(0, o.drawSize);
    this.entrants = [...field].sort((a, b) => teams[b]!.rating - teams[a]!.rating || a - b);
    this.alive = [rng.shuffle([...field])];
    this.rounds = Math.round(Math.log2(o.drawSize));
    this.racers = o.race === null ? [] : racersOf(teams, this.entrants, o.race);
    this.racers.forEach((r, i) => {
      const list = this.racersOfTeam.get(r.team) ?? [];
      list.push(i);
      this.racersOfTeam.set(r.team, list);
    });
    this.counts = this.racers.map(() => 0);
    const size = this.entrants.length;
    this.entrants.forEach((t, i) => this.position.set(t, i));
    this.winChance = new Float64Array(size * size);
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < size; j++) {
        const d = teams[this.entrants[i]!]!.rating - teams[this.entrants[j]!]!.rating;
        this.winChance[i * size + j] = logistic(o.model.k * d);
      }
    }
  }

  get played(): number {
    return this.alive.length - 1;
  }

  /** Chance that `a` beats `b` in one match. */
  private beats(a: number, b: number): number {
    const size = this.entrants.length;
    return this.winChance[this.position.get(a)! * size + this.position.get(b)!]!;
  }

  advanceTo(rounds: number): void {
    const target = Math.min(rounds, this.rounds);
    while (this.played < target) {
      const r = this.played;
      const rng = Rng.derive(this.o.seed, 'outright-round', this.o.id, r);
      const prev = this.alive[r]!;
      const next: number[] = [];
      for (let q = 0; q < prev.length; q += 2) {
        const a = prev[q]!;
        const b = prev[q + 1]!;
        this.addCounts(rng, a, b, this.counts);
        next.push(rng.next() < this.beats(a, b) ? a : b);
      }
      this.alive.push(next);
    }
  }

  private addCounts(rng: Rng, a: number, b: number, counts: number[]): void {
    const t = this.o.teams;
    for (const [own, opp] of [
      [a, b],
      [b, a],
    ] as const) {
      for (const i of this.racersOfTeam.get(own) ?? []) {
        counts[i]! += rng.poisson(matchRate(this.racers[i]!, t[own]!, t[opp]!));
      }
    }
  }

  fair(sims: number, rng: Rng): FairTable {
    const n = this.o.teams.length;
    const winner = new Float64Array(n);
    const final = new Float64Array(n);
    // Exact bracket odds: each slot holds who can be there and how likely, merged pairwise round by round.
    let level: Array<Map<number, number>> = this.alive[this.played]!.map((t) => new Map([[t, 1]]));
    for (let r = this.played; r < this.rounds; r++) {
      if (r === this.rounds - 1) for (const slot of level) for (const [t, p] of slot) final[t] = p;
      const next: Array<Map<number, number>> = [];
      for (let q = 0; q < level.length; q += 2) {
        const left = level[q]!;
        const right = level[q + 1]!;
        const merged = new Map<number, number>();
        for (const [a, pa] of left) {
          let win = 0;
          for (const [b, pb] of right) win += pb * this.beats(a, b);
          merged.set(a, pa * win);
        }
        for (const [b, pb] of right) {
          let win = 0;
          for (const [a, pa] of left) win += pa * this.beats(b, a);
          merged.set(b, pb * win);
        }
        next.push(merged);
      }
      level = next;
    }
    for (const [t, p] of level[0]!) winner[t] = p;
    if (this.played >= this.rounds - 1) for (const t of this.alive[this.rounds - 1] ?? []) final[t] = 1;
    const table: FairTable = { winner };
    if (this.rounds >= 2) table.final = final;
    Object.assign(table, this.raceFair(sims, rng));
    return table;
  }

  private raceFair(sims: number, rng: Rng): FairTable {
    const race = this.o.race;
    if (race === null || this.racers.length === 0) return {};
    const one = new Float64Array(this.racers.length);
    const some = new Float64Array(this.racers.length);
    const counts = [...this.counts];
    // Against an equal opponent: the Monte Carlo skips the opponent's strength for speed.
    const samplers = this.racers.map((r) => poissonSampler(r.rate));
    for (let s = 0; s < sims; s++) {
      for (let i = 0; i < counts.length; i++) counts[i] = this.counts[i]!;
      let field = this.alive[this.played]!;
      for (let r = this.played; r < this.rounds; r++) {
        const next: number[] = [];
        for (let q = 0; q < field.length; q += 2) {
          const a = field[q]!;
          const b = field[q + 1]!;
          for (const t of [a, b]) for (const i of this.racersOfTeam.get(t) ?? []) counts[i]! += samplers[i]!(rng);
          next.push(rng.next() < this.beats(a, b) ? a : b);
        }
        field = next;
      }
      addPlaceShares(counts, 1, one);
      if (race.top !== undefined) addPlaceShares(counts, race.top.places, some);
    }
    const out: FairTable = { race: one.map((x) => x / sims) };
    if (race.top !== undefined) out.race_top = some.map((x) => x / sims);
    return out;
  }

  final(): FinalTable {
    const champion = this.alive[this.rounds]?.[0];
    if (champion === undefined) throw new Error(`knockout ${this.o.id} is not over`);
    const table: FinalTable = { winner: [{ index: champion, factor: 1 }] };
    if (this.rounds >= 2) table.final = this.alive[this.rounds - 1]!.map((index) => ({ index, factor: 1 }));
    const race = this.o.race;
    if (race !== null && this.racers.length > 0) {
      table.race = placeShares(this.counts, 1);
      if (race.top !== undefined) table.race_top = placeShares(this.counts, race.top.places);
    }
    return table;
  }

  eliminated(kind: MarketKind): ReadonlySet<number> {
    // A finalist who loses the final still reached it: the final market looks at the last two.
    const round = kind === 'winner' ? this.played : kind === 'final' ? Math.min(this.played, this.rounds - 1) : -1;
    if (round < 0) return new Set();
    const alive = new Set(this.alive[round]!);
    return new Set(this.entrants.filter((t) => !alive.has(t)));
  }

  /** Who is still in (tests and diagnostics). */
  remaining(): readonly number[] {
    return this.alive[this.played]!;
  }
}
