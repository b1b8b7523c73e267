// The capacity world: thousands of deep events (~1,000 markets each) over three sports, generated one NDJSON body at a time.
import type { FeedMessage, FixtureMessage, MarketsMessage, Outcome } from '../src/feed/messages.js';
import { MarketFactory, correctScoreOutcomes, fmtLine, lines, overProbability, price, prng, signed } from './world.js';

export interface CapacityPlan {
  /** Events in all (live + prematch). */
  events: number;
  /** The first `live` events are fed `status: live` and a score. */
  live: number;
  /** Markets of every event. */
  markets: number;
  /** Epoch ms the start times are laid out around. */
  now: number;
  seed: number;
}

/** What the tick generator needs to know about a live event: its id and how many selections it has. */
export interface LiveBook {
  eventId: string;
  /** Selection ids of the event run 1..selections (each event numbers its own). */
  selections: number;
}

export interface CapacityBody {
  body: string;
  events: number;
  markets: number;
  selections: number;
  /** The live events of this body. */
  live: LiveBook[];
}

type SportKey = 'soccer' | 'basketball' | 'american_football';

interface SportProfile {
  key: SportKey;
  name: string;
  /** Club name endings, so team names read like the sport's. */
  suffixes: readonly string[];
  /** Player prop squad size per side (docs/markets.md "Player props"). */
  players: number;
  /** Period and clock of a game in progress. */
  livePeriods: readonly string[];
  book(f: MarketFactory, g: Game, extra: number): void;
}

interface Player {
  id: string;
  name: string;
}

interface Game {
  home: string;
  away: string;
  homePlayers: Player[];
  awayPlayers: Player[];
  /** Home win probability (regulation), 0.2-0.7. */
  strength: number;
}

const COUNTRIES = ['England', 'Spain', 'Germany', 'Italy', 'France', 'Brazil', 'USA', 'Japan'] as const;
const TIERS = 2;
const TEAMS_PER_LEAGUE = 20;
const CITIES = [
  'Northbridge',
  'Southport',
  'Eastfield',
  'Westmoor',
  'Kingsford',
  'Ashby',
  'Brookhaven',
  'Carrow',
  'Dunmore',
  'Elmstead',
  'Fairhaven',
  'Glenrock',
  'Harrowgate',
  'Ironbridge',
  'Juniper Bay',
  'Kestrel Hill',
  'Lakemont',
  'Marlowe',
  'Newcastle Vale',
  'Oakridge',
  'Pinecrest',
  'Queensbury',
  'Riverside',
  'Stonehill',
];
const FIRST = ['Alex', 'Ben', 'Carlos', 'David', 'Erik', 'Felix', 'Gabriel', 'Hugo', 'Ivan', 'Jonas', 'Kai', 'Luca'];
const LAST = ['Silva', 'Novak', 'Berg', 'Rossi', 'Moreau', 'Tanaka', 'Walker', 'Jensen', 'Costa', 'Keller', 'Duarte'];

const FULL = { suffix: '', label: '', share: 1 };
const SOCCER_SCOPES = [
  FULL,
  { suffix: '@1h', label: ' - 1st Half', share: 0.45 },
  { suffix: '@2h', label: ' - 2nd Half', share: 0.55 },
];
const QUARTERS = [1, 2, 3, 4].map((q) => ({ suffix: `@q${q}`, label: ` - Quarter ${q}`, share: 0.25 }));
const HALVES = [
  { suffix: '@1h', label: ' - 1st Half', share: 0.5 },
  { suffix: '@2h', label: ' - 2nd Half', share: 0.5 },
];

/** `count` lines either side of `center`, `step` apart, keeping only those above `floor`. */
function ladder(center: number, step: number, count: number, floor = -Infinity): number[] {
  return lines(center - count * step, center + count * step, step).filter((l) => l > floor);
}

function threeWay(f: MarketFactory, key: string, name: string, g: Game, pHome: number, pDraw: number): void {
  f.add(key, name, [
    { code: 'home', label: g.home, odds: price(f.jitter(pHome)), team_side: 'home' },
    { code: 'draw', label: 'Draw', odds: price(f.jitter(pDraw)), team_side: null },
    { code: 'away', label: g.away, odds: price(f.jitter(Math.max(0.03, 1 - pHome - pDraw))), team_side: 'away' },
  ]);
}

/** Handicap lines from the home side: P(home covers) falls as the line gets more negative. */
function handicaps(
  f: MarketFactory,
  g: Game,
  key: string,
  label: string,
  ls: number[],
  edge: number,
  spread: number,
): void {
  for (const line of ls) {
    const pHome = overProbability(-line, edge, spread);
    f.add(`asian_handicap${key}:${fmtLine(line)}`, `Handicap ${signed(line)}${label}`, [
      { code: 'home', label: `${g.home} ${signed(line)}`, odds: price(f.jitter(pHome), 1.04), team_side: 'home' },
      { code: 'away', label: `${g.away} ${signed(-line)}`, odds: price(f.jitter(1 - pHome), 1.04), team_side: 'away' },
    ]);
  }
}

function totals(f: MarketFactory, family: string, name: string, ls: number[], mean: number, spread: number): void {
  for (const line of ls)
    f.overUnder(`${family}:${fmtLine(line)}`, `${name} ${fmtLine(line)}`, overProbability(line, mean, spread));
}

function oddEven(f: MarketFactory, scope: { suffix: string; label: string }): void {
  f.add(`odd_even${scope.suffix}`, `Odd/Even${scope.label}`, [
    { code: 'odd', label: 'Odd', odds: price(0.5), team_side: null },
    { code: 'even', label: 'Even', odds: price(0.5), team_side: null },
  ]);
}

/** `player_<stat>_<player_id>:L`, over/under (docs/markets.md "Player props"). */
function playerProp(
  f: MarketFactory,
  p: Player,
  stat: string,
  statName: string,
  line: number,
  mean: number,
  spread: number,
): void {
  f.overUnder(
    `player_${stat}_${p.id}:${fmtLine(line)}`,
    `${p.name} ${statName} ${fmtLine(line)}`,
    overProbability(line, mean, spread),
  );
}

/** Home and away players alternately, so a book cut at its market target drops the bench of both sides. */
function bothSquads(g: Game): Player[] {
  const out: Player[] = [];
  for (let i = 0; i < Math.max(g.homePlayers.length, g.awayPlayers.length); i++) {
    if (g.homePlayers[i]) out.push(g.homePlayers[i]!);
    if (g.awayPlayers[i]) out.push(g.awayPlayers[i]!);
  }
  return out;
}

function soccerBook(f: MarketFactory, g: Game, extra: number): void {
  const pHome = g.strength;
  const pDraw = 0.27;
  const pAway = Math.max(0.05, 1 - pHome - pDraw);
  for (const s of SOCCER_SCOPES) {
    threeWay(
      f,
      `1x2${s.suffix}`,
      `Match Result${s.label}`,
      g,
      pHome * (s.share === 1 ? 1 : 0.8),
      pDraw * (s.share === 1 ? 1 : 1.5),
    );
    f.add(`double_chance${s.suffix}`, `Double Chance${s.label}`, [
      { code: 'home_draw', label: `${g.home} or Draw`, odds: price(pHome + pDraw), team_side: null },
      { code: 'home_away', label: `${g.home} or ${g.away}`, odds: price(pHome + pAway), team_side: null },
      { code: 'draw_away', label: `Draw or ${g.away}`, odds: price(pDraw + pAway), team_side: null },
    ]);
    f.add(`draw_no_bet${s.suffix}`, `Draw No Bet${s.label}`, [
      { code: 'home', label: g.home, odds: price(pHome / (pHome + pAway)), team_side: 'home' },
      { code: 'away', label: g.away, odds: price(pAway / (pHome + pAway)), team_side: 'away' },
    ]);
    f.add(`btts${s.suffix}`, `Both Teams To Score${s.label}`, [
      { code: 'yes', label: 'Yes', odds: price(f.jitter(0.52 * s.share)), team_side: null },
      { code: 'no', label: 'No', odds: price(f.jitter(1 - 0.52 * s.share)), team_side: null },
    ]);
    oddEven(f, s);
  }
  const htft: Array<Omit<Outcome, 'selection_id'>> = [];
  for (const ht of ['home', 'draw', 'away']) {
    for (const ft of ['home', 'draw', 'away']) {
      htft.push({
        code: `${ht}/${ft}`,
        label: `${ht}/${ft}`,
        odds: price(f.jitter(ht === ft ? 0.2 : 0.06)),
        team_side: null,
      });
    }
  }
  f.add('ht_ft', 'Half Time/Full Time', htft);
  f.add('winning_margin', 'Winning Margin', [
    ...['1', '2', '3+'].map((m, i) => ({
      code: `home_${m}`,
      label: `${g.home} by ${m}`,
      odds: price(pHome / 2 / (i + 1)),
      team_side: 'home' as const,
    })),
    { code: 'draw', label: 'Draw', odds: price(pDraw), team_side: null },
    ...['1', '2', '3+'].map((m, i) => ({
      code: `away_${m}`,
      label: `${g.away} by ${m}`,
      odds: price(pAway / 2 / (i + 1)),
      team_side: 'away' as const,
    })),
  ]);
  for (const [s, max] of [
    [SOCCER_SCOPES[0]!, 5],
    [SOCCER_SCOPES[1]!, 3],
    [SOCCER_SCOPES[2]!, 3],
  ] as const) {
    f.add(`correct_score${s.suffix}`, `Correct Score${s.label}`, correctScoreOutcomes(f, max, 0.02));
    const goals = max === 5 ? ['0', '1', '2', '3', '4', '5', '6+'] : ['0', '1', '2', '3+'];
    f.add(
      `exact_total${s.suffix}`,
      `Exact Total Goals${s.label}`,
      goals.map((n, i) => ({
        code: n,
        label: n,
        odds: price(f.jitter(0.3 / (1 + Math.abs(i - 2.5 * s.share)))),
        team_side: null,
      })),
    );
  }
  for (const l of [-3, -2, -1, 1, 2, 3]) {
    threeWay(f, `handicap_3way:${l}`, `3-Way Handicap ${signed(l)}`, g, overProbability(-l, 0.4, 0.9) * 0.8, 0.22);
  }
  const edge = (pHome - pAway) * 2;
  for (const s of SOCCER_SCOPES) {
    const count = (s.share === 1 ? 12 : 6) + extra;
    handicaps(f, g, s.suffix, s.label, ladder(0, 0.25, count), edge * s.share, 0.9);
  }
  for (const s of SOCCER_SCOPES) {
    const mean = 2.7 * s.share;
    totals(
      f,
      `totals${s.suffix}`,
      `Total Goals${s.label}`,
      lines(0.5, (s.share === 1 ? 6.5 : 3.5) + extra * 0.25, 0.25),
      mean,
      0.8,
    );
  }
  for (const s of SOCCER_SCOPES) {
    for (const side of ['home', 'away'] as const) {
      const mean = (side === 'home' ? 1.5 : 1.2) * s.share;
      const to = (s.share === 1 ? 4 : 2.5) + extra * 0.25;
      totals(
        f,
        `team_totals_${side}${s.suffix}`,
        `${side === 'home' ? g.home : g.away} Total Goals${s.label}`,
        lines(0.5, to, s.share === 1 ? 0.25 : 0.5),
        mean,
        0.7,
      );
    }
  }
  const props: Array<[string, string, number[], number, number]> = [
    ['goals', 'Goals', [0.5, 1.5, 2.5], 0.2, 0.4],
    ['assists', 'Assists', [0.5, 1.5], 0.15, 0.4],
    ['shots', 'Shots', lines(0.5, 3.5 + extra, 1), 1.3, 0.6],
    ['shots_on_target', 'Shots On Target', [0.5, 1.5, 2.5], 0.5, 0.5],
    ['passes', 'Passes', lines(19.5, 69.5, 10), 38, 8],
    ['tackles', 'Tackles', [0.5, 1.5, 2.5, 3.5], 1.6, 0.7],
    ['fouls', 'Fouls', [0.5, 1.5, 2.5], 1, 0.6],
    ['cards', 'Cards', [0.5, 1.5], 0.12, 0.3],
  ];
  for (const p of bothSquads(g)) {
    for (const [stat, name, ls, mean, spread] of props)
      for (const l of ls) playerProp(f, p, stat, name, l, mean, spread);
  }
}

/** Points sports (basketball, American football): spreads and totals per scope, point-ladder props. */
function pointsBook(
  f: MarketFactory,
  g: Game,
  extra: number,
  o: {
    periods: ReadonlyArray<{ suffix: string; label: string; share: number }>;
    total: number;
    /** Step between total lines (spreads always go in half points). */
    totalStep: number;
    spreadCount: number;
    totalCount: number;
    /** `fixed` ladders keep their length (touchdowns stop at 2.5); the others widen with `extra`. */
    props: Array<{
      stat: string;
      name: string;
      players: 'all' | number[];
      mean: number;
      step: number;
      count: number;
      spread: number;
      fixed?: boolean;
    }>;
  },
): void {
  const pHome = g.strength;
  f.add('moneyline', 'Winner', [
    { code: 'home', label: g.home, odds: price(pHome), team_side: 'home' },
    { code: 'away', label: g.away, odds: price(1 - pHome), team_side: 'away' },
  ]);
  for (const s of o.periods) threeWay(f, `1x2${s.suffix}`, `Result${s.label}`, g, pHome * 0.92, 0.06);
  const edge = (pHome - 0.5) * o.total * 0.2;
  for (const s of [FULL, ...o.periods]) {
    const count = Math.max(2, Math.round((o.spreadCount + extra) * Math.sqrt(s.share)));
    // Half and whole lines alike, as points-sport spreads are quoted.
    handicaps(f, g, s.suffix, s.label, ladder(0, 0.5, count), edge * s.share, 2 + 4 * s.share);
  }
  for (const s of [FULL, ...o.periods]) {
    const center = Math.round(o.total * s.share) + 0.5;
    const count = Math.max(2, Math.round((o.totalCount + extra) * Math.sqrt(s.share)));
    totals(
      f,
      `totals${s.suffix}`,
      `Total Points${s.label}`,
      ladder(center, o.totalStep, count, 0),
      center,
      2 + 5 * s.share,
    );
  }
  for (const side of ['home', 'away'] as const) {
    const center = Math.round(o.total / 2) + 0.5;
    totals(
      f,
      `team_totals_${side}`,
      `${side === 'home' ? g.home : g.away} Total Points`,
      ladder(center, o.totalStep, Math.round((o.totalCount + extra) * 0.7), 0),
      center,
      4,
    );
  }
  for (const p of bothSquads(g).map((pl, i) => ({ pl, slot: Math.floor(i / 2) }))) {
    for (const prop of o.props) {
      if (prop.players !== 'all' && !prop.players.includes(p.slot)) continue;
      const center = Math.floor(prop.mean) + 0.5;
      for (const l of ladder(center, prop.step, prop.count + (prop.fixed === true ? 0 : extra), 0))
        playerProp(f, p.pl, prop.stat, prop.name, l, prop.mean, prop.spread);
    }
  }
}

const SPORTS: readonly SportProfile[] = [
  {
    key: 'soccer',
    name: 'Soccer',
    suffixes: ['United', 'City', 'Rovers', 'Athletic', 'Wanderers', 'FC'],
    // docs/markets.md: every outfield player of both match-day squads (11 starters, 9 substitutes).
    players: 20,
    livePeriods: ['1H', '2H'],
    book: soccerBook,
  },
  {
    key: 'basketball',
    name: 'Basketball',
    suffixes: ['Hawks', 'Giants', 'Comets', 'Royals', 'Lions', 'Storm'],
    players: 4,
    livePeriods: ['Q1', 'Q2', 'Q3', 'Q4'],
    book: (f, g, extra) =>
      pointsBook(f, g, extra, {
        periods: [...HALVES, ...QUARTERS],
        total: 218,
        totalStep: 1,
        spreadCount: 16,
        totalCount: 10,
        props: [
          { stat: 'points', name: 'Points', players: 'all', mean: 18, step: 1, count: 8, spread: 3 },
          { stat: 'rebounds', name: 'Rebounds', players: 'all', mean: 7, step: 1, count: 4, spread: 1.5 },
          { stat: 'assists', name: 'Assists', players: 'all', mean: 5, step: 1, count: 3, spread: 1.2 },
        ],
      }),
  },
  {
    key: 'american_football',
    name: 'American Football',
    suffixes: ['Chargers', 'Bisons', 'Mariners', 'Rangers', 'Pioneers', 'Titans'],
    // docs/markets.md: quarterback, first running back, first receiver.
    players: 3,
    livePeriods: ['Q1', 'Q2', 'Q3', 'Q4'],
    book: (f, g, extra) =>
      pointsBook(f, g, extra, {
        periods: HALVES,
        total: 45,
        totalStep: 0.5,
        spreadCount: 20,
        totalCount: 16,
        props: [
          { stat: 'passing_yards', name: 'Passing Yards', players: [0], mean: 245, step: 5, count: 10, spread: 25 },
          { stat: 'rushing_yards', name: 'Rushing Yards', players: [1], mean: 70, step: 5, count: 8, spread: 15 },
          { stat: 'receiving_yards', name: 'Receiving Yards', players: [2], mean: 65, step: 5, count: 8, spread: 15 },
          {
            stat: 'touchdowns',
            name: 'Touchdowns',
            players: 'all',
            mean: 0.6,
            step: 1,
            count: 2,
            spread: 0.5,
            fixed: true,
          },
        ],
      }),
  },
];

/** Twelve in twenty events are soccer, five basketball, three American football: roughly a bookmaker's mix. */
function sportOf(i: number): SportProfile {
  const r = i % 20;
  return SPORTS[r < 12 ? 0 : r < 17 ? 1 : 2]!;
}

/** The `extra` ladder width each sport needs to reach the market target (the same for every event of a sport). */
export const extraFor = new Map<string, number>();

function buildBook(sport: SportProfile, g: Game, target: number, seed: number): MarketsMessage['markets'] {
  const memo = `${sport.key}/${target}`;
  let extra = extraFor.get(memo) ?? 0;
  for (;;) {
    const f = new MarketFactory(1, 1, prng(seed));
    sport.book(f, g, extra);
    if (f.markets.length >= target || extra >= 200) {
      extraFor.set(memo, extra);
      return f.markets.length > target ? f.markets.slice(0, target) : f.markets;
    }
    extra++;
  }
}

function teamOf(
  sportIndex: number,
  country: number,
  tier: number,
  n: number,
  sport: SportProfile,
): { name: string; players: Player[]; logo: string } {
  const city = CITIES[(n + country * 5 + tier * 11) % CITIES.length]!;
  const name = `${city} ${sport.suffixes[(n + tier) % sport.suffixes.length]!}${tier > 0 ? ` ${COUNTRIES[country]!.slice(0, 3)}` : ''}`;
  // Player ids end in `_p<digits>` (docs/markets.md) and are unique across every team of the world.
  const teamNo = ((sportIndex * COUNTRIES.length + country) * TIERS + tier) * TEAMS_PER_LEAGUE + n;
  const players: Player[] = [];
  for (let k = 0; k < sport.players; k++) {
    const id = `p${100_000 + teamNo * 100 + k + 1}`;
    players.push({ id, name: `${FIRST[(teamNo + k) % FIRST.length]!} ${LAST[(teamNo * 7 + k * 3) % LAST.length]!}` });
  }
  return { name, players, logo: `${sport.key}-${teamNo}` };
}

interface PlannedEvent {
  messages: FeedMessage[];
  markets: number;
  selections: number;
  live: LiveBook | null;
}

/** Event `i` of the plan: fixture and markets, plus status and score for the live ones. Deterministic. */
export function capacityEvent(plan: CapacityPlan, i: number): PlannedEvent {
  const sport = sportOf(i);
  const sportIndex = SPORTS.indexOf(sport);
  const random = prng((plan.seed * 1_000_003 + i) >>> 0);
  const country = Math.floor(i / 20) % COUNTRIES.length;
  const tier = Math.floor(i / (20 * COUNTRIES.length)) % TIERS;
  const round = Math.floor(i / (20 * COUNTRIES.length * TIERS));
  const homeNo = round % TEAMS_PER_LEAGUE;
  const awayNo = (homeNo + 1 + (Math.floor(round / TEAMS_PER_LEAGUE) % (TEAMS_PER_LEAGUE - 1))) % TEAMS_PER_LEAGUE;
  const home = teamOf(sportIndex, country, tier, homeNo, sport);
  const away = teamOf(sportIndex, country, tier, awayNo, sport);
  const id = `cap-${sport.key.replaceAll('_', '-')}-${i}`;
  const live = i < plan.live;
  const minute = 60_000;
  // Live games kicked off 5-85 minutes ago; prematch ones are spread over the next two weeks.
  const start = live
    ? Math.floor(plan.now / minute) * minute - (5 + Math.floor(random() * 80)) * minute
    : Math.ceil(plan.now / minute) * minute +
      3_600_000 +
      Math.floor(((i - plan.live) * 14 * 24 * 60) / Math.max(1, plan.events - plan.live) / 5) * 5 * minute;
  const countryName = COUNTRIES[country]!;
  const fixture: FixtureMessage = {
    type: 'fixture',
    event_id: id,
    sport: sport.key,
    league: {
      slug: `${sport.key.replaceAll('_', '-')}-${countryName.toLowerCase()}-${tier + 1}`,
      name: `${countryName} ${sport.name} ${tier === 0 ? 'Premier League' : 'Division 2'}`,
      country: countryName,
      tier: tier + 1,
    },
    home_team: home.name,
    away_team: away.name,
    start_time: new Date(start).toISOString(),
    home_logo_id: home.logo,
    away_logo_id: away.logo,
  };
  const game: Game = {
    home: home.name,
    away: away.name,
    homePlayers: home.players,
    awayPlayers: away.players,
    strength: 0.2 + random() * 0.5,
  };
  const markets = buildBook(sport, game, plan.markets, (plan.seed * 7919 + i) >>> 0);
  const selections = markets.reduce((n, m) => n + m.outcomes.length, 0);
  const messages: FeedMessage[] = [fixture, { type: 'markets', event_id: id, markets }];
  if (live) {
    const period = sport.livePeriods[Math.floor(random() * sport.livePeriods.length)]!;
    const scale = sport.key === 'soccer' ? 2 : sport.key === 'basketball' ? 60 : 14;
    messages.push(
      { type: 'status', event_id: id, status: 'live' },
      {
        type: 'score',
        event_id: id,
        score: { home: Math.floor(random() * scale), away: Math.floor(random() * scale) },
        period,
        clock: `${String(Math.floor(random() * 45)).padStart(2, '0')}:${String(Math.floor(random() * 60)).padStart(2, '0')}`,
      },
    );
  }
  return { messages, markets: markets.length, selections, live: live ? { eventId: id, selections } : null };
}

/**
 * The world as NDJSON bodies of `eventsPerBody` events each, built lazily: the whole world is
 * gigabytes of JSON, so only one body at a time exists on the producer's side.
 */
export function* capacityBodies(plan: CapacityPlan, eventsPerBody: number): Generator<CapacityBody> {
  for (let first = 0; first < plan.events; first += eventsPerBody) {
    const out: CapacityBody = { body: '', events: 0, markets: 0, selections: 0, live: [] };
    const linesOut: string[] = [];
    for (let i = first; i < Math.min(plan.events, first + eventsPerBody); i++) {
      const e = capacityEvent(plan, i);
      for (const m of e.messages) linesOut.push(JSON.stringify(m));
      out.events++;
      out.markets += e.markets;
      out.selections += e.selections;
      if (e.live !== null) out.live.push(e.live);
    }
    out.body = linesOut.join('\n');
    yield out;
  }
}
