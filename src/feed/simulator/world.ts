// buildWorld(seed): sports → leagues (tier, fixture horizon) → teams or players with strengths and squads.
import { ADDED_LEAGUES, SPORT_PLANS, type CompetitorKind, type LeaguePlan } from './catalog.js';
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

/**
 * Club names of a league: one club per city first, then a second club in a city under another suffix
 * (as Manchester has City and United); never a numbered duplicate. `taken` holds the names already
 * given in this sport, so two leagues of a country do not share a club name either. One suffix draw
 * per club, as before: a taken name steps to the city's next suffix instead of drawing again, so the
 * league's random stream (and the ratings drawn after the names) stays where it was.
 */
function clubNames(rng: Rng, sport: string, plan: LeaguePlan, taken: Set<string>): string[] {
  const pools = plan.cityPools ?? [plan.country];
  const cities = rng.shuffle(pools.flatMap((c) => [...(CITIES[c] ?? CITIES.England!)]));
  const suffixes = CLUB_SUFFIXES[sport] ?? CLUB_SUFFIXES.soccer!;
  const side = plan.teamSuffix === undefined ? '' : ` ${plan.teamSuffix}`;
  const format = (suffix: string, city: string): string =>
    (suffix === 'FC' || suffix === 'HC' || suffix === 'VC' || suffix === 'TV' || suffix === 'SG'
      ? `${suffix} ${city}`
      : `${city} ${suffix}`) + side;
  const names: string[] = [];
  for (let i = 0; names.length < plan.size; i++) {
    if (i >= cities.length * suffixes.length) throw new Error(`not enough club names for ${plan.name}`);
    const city = cities[i % cities.length]!;
    const drawn = suffixes.indexOf(rng.pick(suffixes));
    for (let step = 0; step < suffixes.length; step++) {
      const name = format(suffixes[(drawn + step) % suffixes.length]!, city);
      if (taken.has(name)) continue;
      taken.add(name);
      names.push(name);
      break;
    }
  }
  return names;
}

function competitorNames(
  rng: Rng,
  sport: string,
  kind: CompetitorKind,
  plan: LeaguePlan,
  taken: Set<string>,
): string[] {
  if (kind === 'club') return clubNames(rng, sport, plan, taken);
  if (kind === 'esports') {
    // Organisations play in several tiers of a game, so esports names repeat across its leagues.
    if (plan.size > ESPORTS_TEAMS.length) throw new Error(`not enough esports names for ${plan.name}`);
    return rng.shuffle([...ESPORTS_TEAMS]).slice(0, plan.size);
  }
  const names = new Set<string>();
  while (names.size < plan.size) names.add(personName(rng, plan.gender));
  return [...names];
}

function squad(
  rng: Rng,
  namer: Namer,
  sport: string,
  kind: CompetitorKind,
  plan: LeaguePlan,
  teamName: string,
): SimPlayer[] {
  if (kind === 'person') return [{ id: namer.playerId(), name: teamName, position: 'P', skill: 1 }];
  const shape = SQUADS[kind === 'esports' ? 'esports' : sport] ?? [];
  const players: SimPlayer[] = [];
  const used = new Set<string>();
  for (const [position, count] of shape) {
    for (let i = 0; i < count; i++) {
      const draw = (): string => (kind === 'esports' ? handleName(rng) : personName(rng, plan.gender));
      let name = draw();
      while (used.has(name)) name = draw();
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
  // The sports' own leagues first, then the added ones (appended: the earlier keep their positions).
  const plans: Array<{ sport: string; kind: CompetitorKind; plan: LeaguePlan }> = [];
  for (const sport of SPORT_PLANS)
    for (const plan of sport.leagues) plans.push({ sport: sport.key, kind: sport.kind, plan });
  for (const added of ADDED_LEAGUES) {
    const sport = SPORT_PLANS.find((s) => s.key === added.sport);
    if (sport === undefined) throw new Error(`added league ${added.plan.name}: no sport ${added.sport}`);
    plans.push({ sport: sport.key, kind: sport.kind, plan: added.plan });
  }
  // Club names already given in each sport: no two clubs of a sport share one.
  const takenBySport = new Map<string, Set<string>>();
  for (const { sport, kind, plan } of plans) {
    let taken = takenBySport.get(sport);
    if (taken === undefined) takenBySport.set(sport, (taken = new Set<string>()));
    const index = leagues.length;
    const rng = Rng.derive(seed, 'league', sport, plan.name, plan.country);
    let slug = slugify(`${plan.country} ${plan.name}`);
    if (slugs.has(slug)) slug = slugify(`${sport} ${slug}`);
    slugs.add(slug);
    const spread = ratingSpread(sport, plan.tier);
    const teams = competitorNames(rng, sport, kind, plan, taken).map((name): SimTeam => ({
      name,
      logoId: namer.logoId(name),
      rating: Math.round(rng.normal(0, 1) * spread * 1000) / 1000,
      players: squad(rng, namer, sport, kind, plan, name),
    }));
    teamCount += teams.length;
    leagues.push({ index, sport, kind, slug, name: plan.name, country: plan.country, tier: plan.tier, plan, teams });
  }
  return { seed, leagues, sports: SPORT_PLANS.map((s) => s.key), teamCount, playerCount: namer.players };
}
