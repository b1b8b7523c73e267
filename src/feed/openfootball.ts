// Converts an openfootball season file (football.json format) into a replayable, chronological feed.
import type {
  FeedMessage,
  FixtureMessage,
  MarketDef,
  MarketsMessage,
  ResultMessage,
  ScoreMessage,
  StatusMessage,
} from './messages.js';

export interface OpenfootballLeague {
  slug: string;
  name: string;
  country: string;
  tier?: number;
}

export interface OpenfootballOptions {
  /** League of the fixtures; default derived from the season name ("English Premier League 2023/24"). */
  league?: OpenfootballLeague;
  /** openfootball league code such as `en.1` (the file name's prefix), used in event ids. */
  code?: string;
  /**
   * Added to every market and selection id. Default: derived from the event id prefix, so two
   * seasons replayed into one service never share an id.
   */
  idBase?: number;
}

type Pair = [number, number];

interface SeasonMatch {
  date: string;
  time: string | undefined;
  team1: string;
  team2: string;
  ht: Pair | undefined;
  ft: Pair | undefined;
  et: Pair | undefined;
  pen: Pair | undefined;
}

interface Season {
  name: string;
  matches: SeasonMatch[];
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const DEFAULT_KICKOFF = '15:00';
/** Room for 100 market and selection ids per match (see marketsFor). */
const IDS_PER_MATCH = 100;
const MAX_MATCHES = 9_999;
const ID_BASE_STEP = 1_000_000;

// ---------------------------------------------------------------------------------------------
// Reading the file: narrow `unknown` to the few fields we use, failing with the place of the problem.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(where: string, what: string): never {
  throw new Error(`openfootball season: ${where} ${what}`);
}

function nonEmptyString(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') fail(where, 'must be a non-empty string');
  return value.trim();
}

function pair(value: unknown, where: string): Pair | undefined {
  if (value === undefined || value === null) return undefined;
  const goals = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  if (!Array.isArray(value) || value.length !== 2) fail(where, 'must be a [home, away] pair');
  const [home, away]: unknown[] = value;
  if (!goals(home) || !goals(away)) fail(where, 'must hold two non-negative integers');
  return [home, away];
}

function readSeason(season: unknown): Season {
  if (!isRecord(season)) fail('file', 'must be a JSON object {name, matches}');
  const name = nonEmptyString(season.name, 'name');
  if (!Array.isArray(season.matches)) fail('matches', 'must be an array');
  const matches = season.matches.map((raw: unknown, i): SeasonMatch => {
    const where = `matches[${i}]`;
    if (!isRecord(raw)) fail(where, 'must be an object');
    const date = nonEmptyString(raw.date, `${where}.date`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) fail(`${where}.date`, 'must be YYYY-MM-DD');
    let time: string | undefined;
    if (raw.time !== undefined && raw.time !== null) {
      time = nonEmptyString(raw.time, `${where}.time`);
      if (!/^\d{2}:\d{2}$/.test(time)) fail(`${where}.time`, 'must be HH:MM');
    }
    const score = isRecord(raw.score) ? raw.score : {};
    return {
      date,
      time,
      team1: nonEmptyString(raw.team1, `${where}.team1`),
      team2: nonEmptyString(raw.team2, `${where}.team2`),
      ht: pair(score.ht, `${where}.score.ht`),
      ft: pair(score.ft, `${where}.score.ft`),
      et: pair(score.et, `${where}.score.et`),
      pen: pair(score.p, `${where}.score.p`),
    };
  });
  if (matches.length > MAX_MATCHES) fail('matches', `has more than ${MAX_MATCHES} matches`);
  return { name, matches };
}

// ---------------------------------------------------------------------------------------------
// Naming: league, event ids, logo ids.

/** Leading word of openfootball season names → country and the code of its files (`en.1`). */
const DEMONYMS: Readonly<Record<string, { country: string; code: string }>> = {
  english: { country: 'England', code: 'en' },
  deutsche: { country: 'Germany', code: 'de' },
  german: { country: 'Germany', code: 'de' },
  spanish: { country: 'Spain', code: 'es' },
  italian: { country: 'Italy', code: 'it' },
  french: { country: 'France', code: 'fr' },
  dutch: { country: 'Netherlands', code: 'nl' },
  portuguese: { country: 'Portugal', code: 'pt' },
  scottish: { country: 'Scotland', code: 'sco' },
  austrian: { country: 'Austria', code: 'at' },
  belgian: { country: 'Belgium', code: 'be' },
  turkish: { country: 'Turkey', code: 'tr' },
};

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

interface Naming {
  league: OpenfootballLeague;
  eventIdPrefix: string;
}

function deriveNaming(seasonName: string, opts: OpenfootballOptions): Naming {
  // "English Premier League 2023/24" → competition "English Premier League", season "2023-24".
  const m = /^(.*?)\s+(\d{4}(?:\/\d{2,4})?)$/.exec(seasonName);
  const competition = m ? m[1]! : seasonName;
  const seasonLabel = m ? m[2]!.replace('/', '-') : '';
  const [firstWord = '', ...rest] = competition.split(/\s+/);
  const demonym = DEMONYMS[firstWord.toLowerCase()];

  let league = opts.league;
  if (!league) {
    if (!demonym || rest.length === 0) {
      throw new Error(`openfootball season: cannot derive the league from '${seasonName}'; pass opts.league`);
    }
    const name = rest.join(' ');
    league = { slug: slugify(`${demonym.country} ${name}`), name, country: demonym.country, tier: 1 };
  }
  const code = opts.code ?? (demonym ? `${demonym.code}.1` : league.slug);
  const prefix = ['of', slugify(code), seasonLabel].filter((part) => part !== '').join('-');
  return { league, eventIdPrefix: prefix };
}

/** FNV-1a: a stable, dependency-free string hash for the default id base. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function defaultIdBase(prefix: string): number {
  return (fnv1a(prefix) % ID_BASE_STEP) * ID_BASE_STEP;
}

function logoId(team: string): string | undefined {
  const slug = slugify(team).slice(0, 64).replace(/-+$/, '');
  return slug === '' ? undefined : slug;
}

// ---------------------------------------------------------------------------------------------
// Messages of one match.

/**
 * The main markets every converted event carries, so it shows odds. Prices are fixed, plausible
 * values: the files have no odds and the replay must be deterministic.
 */
function marketsFor(eventId: string, ts: string, m: SeasonMatch, idBase: number, matchNumber: number): MarketsMessage {
  const base = idBase + matchNumber * IDS_PER_MATCH;
  const markets: MarketDef[] = [
    {
      market_id: base + 1,
      key: '1x2',
      name: 'Match Result',
      outcomes: [
        { selection_id: base + 11, code: 'home', label: m.team1, odds: 2.4, team_side: 'home' },
        { selection_id: base + 12, code: 'draw', label: 'Draw', odds: 3.3, team_side: null },
        { selection_id: base + 13, code: 'away', label: m.team2, odds: 2.9, team_side: 'away' },
      ],
    },
    {
      market_id: base + 2,
      key: 'totals:2.5',
      name: 'Total Goals 2.5',
      outcomes: [
        { selection_id: base + 21, code: 'over', label: 'Over 2.5', odds: 1.9, team_side: null },
        { selection_id: base + 22, code: 'under', label: 'Under 2.5', odds: 1.9, team_side: null },
      ],
    },
    {
      market_id: base + 3,
      key: 'btts',
      name: 'Both Teams To Score',
      outcomes: [
        { selection_id: base + 31, code: 'yes', label: 'Yes', odds: 1.8, team_side: null },
        { selection_id: base + 32, code: 'no', label: 'No', odds: 1.95, team_side: null },
      ],
    },
  ];
  return { type: 'markets', ts, event_id: eventId, markets };
}

function periodScore(period: string, [home, away]: Pair): { period: string; home: number; away: number } {
  return { period, home, away };
}

function minus(a: Pair, b: Pair): Pair {
  return [a[0] - b[0], a[1] - b[1]];
}

interface Timed {
  at: number;
  message: FeedMessage;
}

function matchMessages(
  m: SeasonMatch,
  eventId: string,
  league: OpenfootballLeague,
  idBase: number,
  matchNumber: number,
): Timed[] {
  // openfootball times are local (UK or German) kick-off times without a zone; we read them as
  // UTC. The shift of an hour or two does not matter for a replay, and it keeps the conversion
  // free of a time-zone database.
  const kickoff = Date.parse(`${m.date}T${m.time ?? DEFAULT_KICKOFF}:00Z`);
  if (!Number.isFinite(kickoff)) fail(`match ${matchNumber}`, `has an invalid date/time '${m.date} ${m.time ?? ''}'`);
  const iso = (at: number): string => new Date(at).toISOString();

  const homeLogo = logoId(m.team1);
  const awayLogo = logoId(m.team2);
  const fixture: FixtureMessage = {
    type: 'fixture',
    ts: iso(kickoff - 7 * DAY),
    event_id: eventId,
    sport: 'soccer',
    league: { slug: league.slug, name: league.name, country: league.country, tier: league.tier ?? 1 },
    home_team: m.team1,
    away_team: m.team2,
    start_time: iso(kickoff),
    ...(homeLogo ? { home_logo_id: homeLogo } : {}),
    ...(awayLogo ? { away_logo_id: awayLogo } : {}),
  };
  const markets = marketsFor(eventId, iso(kickoff - 7 * DAY), m, idBase, matchNumber);
  const out: Timed[] = [
    { at: kickoff - 7 * DAY, message: fixture },
    { at: kickoff - 7 * DAY, message: markets },
  ];
  if (!m.ft) return out; // not played (yet): a prematch event only

  const ft = m.ft;
  // openfootball leaves out the half-time score of goalless games; it can only have been 0-0.
  const ht = m.ht ?? (ft[0] === 0 && ft[1] === 0 ? ([0, 0] as Pair) : undefined);
  const regular = ht ? [periodScore('1H', ht), periodScore('2H', minus(ft, ht))] : [];

  const live: StatusMessage = { type: 'status', ts: iso(kickoff), event_id: eventId, status: 'live' };
  out.push({ at: kickoff, message: live });
  if (ht) {
    const at = kickoff + 47 * MINUTE;
    const half: ScoreMessage = {
      type: 'score',
      ts: iso(at),
      event_id: eventId,
      score: { home: ht[0], away: ht[1] },
      period: 'HT',
      clock: '45:00',
      period_scores: [periodScore('1H', ht)],
    };
    out.push({ at, message: half });
  }
  const fullAt = kickoff + 95 * MINUTE;
  const full: ScoreMessage = {
    type: 'score',
    ts: iso(fullAt),
    event_id: eventId,
    score: { home: ft[0], away: ft[1] },
    period: '2H',
    clock: '90:00',
    period_scores: regular,
  };
  out.push({ at: fullAt, message: full });

  // Cup files may carry extra time (`et`, the score after 120') and a shoot-out (`p`); the
  // official score includes extra time and excludes the shoot-out.
  let finalScore = ft;
  const periods = [...regular];
  let resultAt = kickoff + 110 * MINUTE;
  let winner: 'home' | 'away' | undefined;
  if (m.et) {
    finalScore = m.et;
    periods.push(periodScore('ET', minus(m.et, ft)));
    const etAt = kickoff + 128 * MINUTE;
    const extra: ScoreMessage = {
      type: 'score',
      ts: iso(etAt),
      event_id: eventId,
      score: { home: m.et[0], away: m.et[1] },
      period: 'ET',
      clock: '120:00',
      period_scores: [...periods],
    };
    out.push({ at: etAt, message: extra });
    resultAt = kickoff + 145 * MINUTE;
  }
  if (m.pen) {
    periods.push(periodScore('PEN', m.pen));
    if (m.pen[0] !== m.pen[1]) winner = m.pen[0] > m.pen[1] ? 'home' : 'away';
    resultAt = kickoff + 160 * MINUTE;
  }
  const result: ResultMessage = {
    type: 'result',
    ts: iso(resultAt),
    event_id: eventId,
    status: 'ended',
    score: { home: finalScore[0], away: finalScore[1] },
    period_scores: periods,
    ended_at: iso(resultAt),
    ...(winner ? { winner } : {}),
  };
  out.push({ at: resultAt, message: result });
  return out;
}

/**
 * Converts a parsed openfootball season (`{name, matches: [{round, date, time?, team1, team2,
 * score?: {ht, ft, et?, p?}}]}`) into feed messages ordered by `ts`. Per played match: fixture and
 * markets a week before kick-off, `live` at kick-off, the half-time and full-time scores, and the
 * result; a match without a score gets only its fixture and markets. Event ids
 * (`of-en-1-2023-24-m001`) and market/selection ids are deterministic.
 */
export function convertOpenfootball(season: unknown, opts: OpenfootballOptions = {}): FeedMessage[] {
  const { name, matches } = readSeason(season);
  const { league, eventIdPrefix } = deriveNaming(name, opts);
  const idBase = opts.idBase ?? defaultIdBase(eventIdPrefix);
  if (
    !Number.isSafeInteger(idBase) ||
    idBase < 0 ||
    !Number.isSafeInteger(idBase + (MAX_MATCHES + 1) * IDS_PER_MATCH)
  ) {
    throw new Error(`openfootball season: idBase ${idBase} leaves no room for safe integer ids`);
  }
  const width = Math.max(3, String(matches.length).length);
  const timed: Timed[] = [];
  matches.forEach((m, i) => {
    const matchNumber = i + 1;
    const eventId = `${eventIdPrefix}-m${String(matchNumber).padStart(width, '0')}`;
    timed.push(...matchMessages(m, eventId, league, idBase, matchNumber));
  });
  // Array.prototype.sort is stable: at equal instants the generation order (fixture before its
  // markets, match 1 before match 2) is kept.
  timed.sort((a, b) => a.at - b.at);
  return timed.map((t) => t.message);
}
