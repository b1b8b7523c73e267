// Player races of a tournament (goals, tries, 180s, centuries…): who takes part, their scoring rates, a fast Poisson.
import type { Rng } from '../rng.js';
import type { SimTeam } from '../world.js';
import type { RacePlan } from './plans.js';

export interface Racer {
  /** Index of the racer's team in the league. */
  team: number;
  /** Selection name: the player, with the team for team sports. */
  name: string;
  /** Expected count per match against an equal opponent. */
  rate: number;
}

/** The best `perTeam` players of the race's positions in each of the given teams, highest rate first. */
export function racersOf(teams: readonly SimTeam[], entrants: readonly number[], plan: RacePlan): Racer[] {
  const out: Racer[] = [];
  for (const t of entrants) {
    const team = teams[t]!;
    const eligible = team.players
      .map((p, order) => ({ p, order }))
      .filter(({ p }) => plan.positions.includes(p.position))
      .sort((a, b) => b.p.skill - a.p.skill || a.order - b.order)
      .slice(0, plan.perTeam);
    for (const { p } of eligible) {
      out.push({
        team: t,
        name: p.name === team.name ? p.name : `${p.name} (${team.name})`,
        rate: plan.rate * p.skill * Math.exp(0.25 * team.rating),
      });
    }
  }
  return out
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.rate - a.r.rate || a.i - b.i)
    .map(({ r }) => r);
}

/** Expected count of a racer in one match: stronger sides create more. */
export function matchRate(r: Racer, own: SimTeam, opponent: SimTeam): number {
  return r.rate * Math.exp(0.2 * (own.rating - opponent.rating));
}

/** Draws from Poisson(lambda) with one uniform per draw (inverse CDF on a table), for Monte Carlo loops. */
export function poissonSampler(lambda: number): (rng: Rng) => number {
  if (!(lambda > 0)) return () => 0;
  if (lambda > 300) {
    const sd = Math.sqrt(lambda);
    return (rng) => Math.max(0, Math.round(rng.normal(lambda, sd)));
  }
  const cdf: number[] = [];
  let p = Math.exp(-lambda);
  let total = 0;
  for (let k = 0; total < 1 - 1e-12 && k < lambda * 4 + 50; k++) {
    total += p;
    cdf.push(total);
    p *= lambda / (k + 1);
  }
  // A guide table: the bucket of u tells where to start, so a draw takes one or two comparisons.
  const buckets = cdf.length * 2;
  const guide = new Int32Array(buckets);
  for (let b = 0, k = 0; b < buckets; b++) {
    while (cdf[k]! < (b / buckets) * total) k++;
    guide[b] = k;
  }
  return (rng) => {
    const x = rng.next();
    const u = x * total;
    let k = guide[Math.floor(x * buckets)]!;
    while (cdf[k]! < u) k++;
    return k;
  };
}

export function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
