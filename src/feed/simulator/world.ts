// buildWorld(seed): sports → leagues (tier, fixture horizon) → teams or players with strengths and squads.
import { SPORT_PLANS, type CompetitorKind, type LeaguePlan } from './catalog.js';
import { CITIES, CLUB_SUFFIXES, ESPORTS_TEAMS, handleName, personName, slugify } from './names.js';
import { Rng } from './rng.js';
import { ratingSpread } from './strength.js';

export interface SimPlayer {
  /** Unique in the world (`p1234`): the `player_id` of stats and the suffix of player-prop keys. */
  id: string;
  name: string;
  /** Sport-specific role (GK, FW, G, C, QB…) that drives the player's share of the action. */
  position: string;
  /** Quality multiplier around 1. */
  skill: number;
}

export interface SimTeam {
  name: string;
  /** Stable logo id (slug of the name), unique in the world. */
  logoId: string;
  /** Strength on a normal scale (sd: the sport's spread, strength.ts); each engine turns it into its own parameters. */
  rating: number;
  players: SimPlayer[];
}

export interface SimLeague {
  /** Position in the world: part of every event id of the league, so it must be stable. */
  index: number;
  sport: string;
  kind: CompetitorKind;
  slug: string;
  name: string;
  country: string;
  tier: 1 | 2 | 3;
  plan: LeaguePlan;
  teams: SimTeam[];
}

export interface World {
  seed: number;
  leagues: SimLeague[];
  sports: string[];
  teamCount: number;
  playerCount: number;
}

/** Squad shape per sport: position and how many of each. */
const SQUADS: Readonly<Record<string, ReadonlyArray<readonly [string, number]>>> = {
  soccer: [
    ['GK', 3],
    ['DF', 8],
    ['MF', 8],
    ['FW', 5],
  ],
  basketball: [
    ['G', 5],
    ['F', 5],
    ['C', 2],
  ],
  ice_hockey: [
    ['G', 2],
    ['D', 8],
    ['F', 12],
  ],
  american_football: [
    ['QB', 1],
    ['RB', 2],
    ['WR', 3],
    ['TE', 1],
    ['K', 1],
  ],
  baseball: [
    ['P', 2],
    ['B', 9],
  ],
  cricket: [
    ['BAT', 6],
    ['BOWL', 5],
  ],
  handball: [
    ['GK', 2],
    ['FP', 12],
  ],
  rugby: [
    ['FWD', 13],
    ['BACK', 10],
  ],
  volleyball: [
    ['S', 2],
    ['OH', 4],
    ['MB', 3],
    ['OP', 2],
    ['L', 1],
  ],
  esports: [
    ['P1', 1],
    ['P2', 1],
    ['P3', 1],
    ['P4', 1],
    ['P5', 1],
  ],
};

class Namer {
  private readonly logoIds = new Set<string>();
  private playerSeq = 0;

  logoId(name: string): string {
    const base = slugify(name) || 'team';
    let id = base;
    for (let n = 2; this.logoIds.has(id); n++) id = `${base.slice(0, 60)}-${n}`;
    this.logoIds.add(id);
    return id;
  }

  playerId(): string {
    this.playerSeq++;
    return `p${this.playerSeq}`;
  }

  get players(): number {
    return this.playerSeq;
  }
}

function clubNames(rng: Rng, sport: string, plan: LeaguePlan): string[] {
  const pools = plan.cityPools ?? [plan.country];
  const cities = rng.shuffle(pools.flatMap((c) => [...(CITIES[c] ?? CITIES.England!)]));
  const suffixes = CLUB_SUFFIXES[sport] ?? CLUB_SUFFIXES.soccer!;
  const names = new Set<string>();
  for (let i = 0; names.size < plan.size; i++) {
    const city = cities[i % cities.length]!;
    const suffix = rng.pick(suffixes);
    const name =
      suffix === 'FC' || suffix === 'HC' || suffix === 'VC' || suffix === 'TV' || suffix === 'SG'
        ? `${suffix} ${city}`
        : `${city} ${suffix}`;
    names.add(i >= cities.length ? `${name} ${Math.floor(i / cities.length) + 1}` : name);
  }
  return [...names];
}

function competitorNames(rng: Rng, sport: string, kind: CompetitorKind, plan: LeaguePlan): string[] {
  if (kind === 'club') return clubNames(rng, sport, plan);
  if (kind === 'esports') {
    const pool = rng.shuffle([...ESPORTS_TEAMS]);
    return Array.from({ length: plan.size }, (_, i) =>
      i < pool.length ? pool[i]! : `${pool[i % pool.length]!} ${Math.floor(i / pool.length) + 1}`,
    );
  }
  const names = new Set<string>();
  while (names.size < plan.size) names.add(personName(rng));
  return [...names];
}

function squad(rng: Rng, namer: Namer, sport: string, kind: CompetitorKind, teamName: string): SimPlayer[] {
  if (kind === 'person') return [{ id: namer.playerId(), name: teamName, position: 'P', skill: 1 }];
  const shape = SQUADS[kind === 'esports' ? 'esports' : sport] ?? [];
  const players: SimPlayer[] = [];
  const used = new Set<string>();
  for (const [position, count] of shape) {
    for (let i = 0; i < count; i++) {
      let name = kind === 'esports' ? handleName(rng) : personName(rng);
      while (used.has(name)) name = kind === 'esports' ? handleName(rng) : personName(rng);
      used.add(name);
      players.push({ id: namer.playerId(), name, position, skill: Math.round(rng.uniform(0.6, 1.4) * 100) / 100 });
    }
  }
  return players;
}

/** The whole world for a seed: same seed, same world (names, strengths, squads, ids). */
export function buildWorld(seed: number): World {
  const namer = new Namer();
  const leagues: SimLeague[] = [];
  const slugs = new Set<string>();
  let teamCount = 0;
  for (const sport of SPORT_PLANS) {
    for (const plan of sport.leagues) {
      const index = leagues.length;
      const rng = Rng.derive(seed, 'league', sport.key, plan.name, plan.country);
      let slug = slugify(`${plan.country} ${plan.name}`);
      if (slugs.has(slug)) slug = slugify(`${sport.key} ${slug}`);
      slugs.add(slug);
      const spread = ratingSpread(sport.key, plan.tier);
      const teams = competitorNames(rng, sport.key, sport.kind, plan).map((name): SimTeam => ({
        name,
        logoId: namer.logoId(name),
        rating: Math.round(rng.normal(0, 1) * spread * 1000) / 1000,
        players: squad(rng, namer, sport.key, sport.kind, name),
      }));
      teamCount += teams.length;
      leagues.push({
        index,
        sport: sport.key,
        kind: sport.kind,
        slug,
        name: plan.name,
        country: plan.country,
        tier: plan.tier,
        plan,
        teams,
      });
    }
  }
  return { seed, leagues, sports: SPORT_PLANS.map((s) => s.key), teamCount, playerCount: namer.players };
}
