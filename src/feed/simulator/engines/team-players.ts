// Player counters for team sports without detailed line-ups: who gets the points, rebounds, assists… by weight.
import type { TeamSide } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import type { Rng } from '../rng.js';
import type { SimPlayer, SimTeam } from '../world.js';
import { playerLine } from './types.js';

export interface TrackedPlayer {
  player: SimPlayer;
  side: TeamSide;
  counters: Record<string, number>;
}

export class TeamPlayers {
  readonly players: TrackedPlayer[];

  constructor(
    team: SimTeam,
    readonly side: TeamSide,
    stats: readonly string[],
  ) {
    this.players = team.players.map((player) => ({
      player,
      side,
      counters: Object.fromEntries(stats.map((s) => [s, 0])),
    }));
  }

  /** A player drawn by `weight(position) × skill`. */
  pick(rng: Rng, weight: (position: string) => number): TrackedPlayer | null {
    const w = this.players.map((p) => weight(p.player.position) * p.player.skill);
    if (w.every((x) => x <= 0)) return null;
    return this.players[rng.weighted(w)] ?? null;
  }

  add(p: TrackedPlayer | null, stat: string, n = 1): void {
    if (p !== null) p.counters[stat] = (p.counters[stat] ?? 0) + n;
  }

  /** Share of the team's `weight` that a player carries. */
  share(p: TrackedPlayer, weight: (position: string) => number): number {
    const total = this.players.reduce((s, q) => s + weight(q.player.position) * q.player.skill, 0);
    return total > 0 ? (weight(p.player.position) * p.player.skill) / total : 0;
  }

  /** The `n` players with the largest share of `weight` (prop markets go to the stars). */
  top(n: number, weight: (position: string) => number): TrackedPlayer[] {
    return [...this.players]
      .sort((a, b) => weight(b.player.position) * b.player.skill - weight(a.player.position) * a.player.skill)
      .slice(0, n);
  }

  lines(): PlayerStats[] {
    return this.players.map((p) => playerLine(p.player.id, p.player.name, this.side, p.counters));
  }
}
