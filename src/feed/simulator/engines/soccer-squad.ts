// Soccer match-day squads: who starts, per-player rates, counters, substitutions and cards.
import type { TeamSide } from '../../../domain/types.js';
import type { Rng } from '../rng.js';
import type { SimPlayer, SimTeam } from '../world.js';

export const SOCCER_STATS = [
  'goals',
  'assists',
  'shots',
  'shots_on_target',
  'passes',
  'tackles',
  'fouls',
  'cards',
  'red_cards',
  'minutes',
] as const;
export type SoccerStat = (typeof SOCCER_STATS)[number];

/** Per-90 rates by position (before the player's skill). */
const RATES: Readonly<Record<string, Partial<Record<SoccerStat, number>>>> = {
  GK: { passes: 28, fouls: 0.05, cards: 0.05 },
  DF: { shots: 0.5, passes: 52, tackles: 2.2, fouls: 1.1, cards: 0.2 },
  MF: { shots: 1.3, passes: 48, tackles: 1.8, fouls: 1.2, cards: 0.18 },
  FW: { shots: 2.6, passes: 22, tackles: 0.6, fouls: 1.0, cards: 0.12 },
};
/** Weight of a player in the choice of scorer and assister. */
const GOAL_WEIGHT: Readonly<Record<string, number>> = { GK: 0, DF: 0.35, MF: 1, FW: 2.6 };
const ASSIST_WEIGHT: Readonly<Record<string, number>> = { GK: 0.05, DF: 0.6, MF: 1.6, FW: 1.1 };

export interface SquadPlayer {
  player: SimPlayer;
  side: TeamSide;
  starter: boolean;
  onPitch: boolean;
  /** Came on or started. */
  played: boolean;
  /** Left the pitch (substituted or sent off): cannot come back. */
  done: boolean;
  counters: Record<SoccerStat, number>;
}

export interface Squad {
  side: TeamSide;
  players: SquadPlayer[];
  subsLeft: number;
  reds: number;
}

function counters(): Record<SoccerStat, number> {
  return {
    goals: 0,
    assists: 0,
    shots: 0,
    shots_on_target: 0,
    passes: 0,
    tackles: 0,
    fouls: 0,
    cards: 0,
    red_cards: 0,
    minutes: 0,
  };
}

/** 11 starters (1 GK, 4 DF, 4 MF, 2 FW) and 9 on the bench, picked by skill with some rotation. */
export function matchDaySquad(rng: Rng, team: SimTeam, side: TeamSide): Squad {
  const byPos = (pos: string): SimPlayer[] =>
    team.players
      .filter((p) => p.position === pos)
      .sort((a, b) => b.skill + rng.uniform(0, 0.3) - (a.skill + rng.uniform(0, 0.3)));
  const shape: Array<[string, number, number]> = [
    ['GK', 1, 1],
    ['DF', 4, 3],
    ['MF', 4, 3],
    ['FW', 2, 2],
  ];
  const players: SquadPlayer[] = [];
  for (const [pos, starters, bench] of shape) {
    const pool = byPos(pos);
    pool.slice(0, starters + bench).forEach((player, i) => {
      const starter = i < starters;
      players.push({ player, side, starter, onPitch: starter, played: starter, done: false, counters: counters() });
    });
  }
  return { side, players, subsLeft: 5, reds: 0 };
}

export function ratePer90(p: SquadPlayer, stat: SoccerStat): number {
  return (RATES[p.player.position]?.[stat] ?? 0) * p.player.skill;
}

export function goalWeight(p: SquadPlayer): number {
  return (GOAL_WEIGHT[p.player.position] ?? 0) * p.player.skill;
}

export function assistWeight(p: SquadPlayer): number {
  return (ASSIST_WEIGHT[p.player.position] ?? 0) * p.player.skill;
}

export function onPitch(squad: Squad): SquadPlayer[] {
  return squad.players.filter((p) => p.onPitch);
}

export function pickWeighted(rng: Rng, players: SquadPlayer[], weight: (p: SquadPlayer) => number): SquadPlayer | null {
  if (players.length === 0) return null;
  const w = players.map(weight);
  if (w.every((x) => x <= 0)) return null;
  return players[rng.weighted(w)] ?? null;
}

/** One substitution: a tired outfield starter off, a bench player of the same line on. */
export function substitute(rng: Rng, squad: Squad): boolean {
  if (squad.subsLeft <= 0) return false;
  const off = squad.players.filter((p) => p.onPitch && p.player.position !== 'GK');
  const bench = squad.players.filter((p) => !p.played && p.player.position !== 'GK');
  if (off.length === 0 || bench.length === 0) return false;
  const out = rng.pick(off);
  const same = bench.filter((p) => p.player.position === out.player.position);
  const comeOn = rng.pick(same.length > 0 ? same : bench);
  out.onPitch = false;
  out.done = true;
  comeOn.onPitch = true;
  comeOn.played = true;
  squad.subsLeft--;
  return true;
}
