// The Odds API (v4) response shapes this adapter reads (/v4/sports/{sport}/odds and /scores), and guards that drop malformed items.

export interface ProviderOutcome {
  name: string;
  price: number;
  /** The line: spreads (the named team's handicap) and totals. */
  point?: number;
}

export interface ProviderMarket {
  key: string;
  last_update?: string;
  outcomes: ProviderOutcome[];
}

export interface ProviderBookmaker {
  key: string;
  title: string;
  last_update?: string;
  markets: ProviderMarket[];
}

/** One item of GET /v4/sports/{sport}/odds. */
export interface OddsEvent {
  id: string;
  sport_key: string;
  sport_title?: string;
  commence_time: string;
  home_team: string;
  away_team: string;
  bookmakers: ProviderBookmaker[];
}

/** One item of GET /v4/sports/{sport}/scores: `scores` is null until the game has started. */
export interface ScoreEvent {
  id: string;
  sport_key: string;
  commence_time: string;
  completed: boolean;
  home_team: string;
  away_team: string;
  scores: Array<{ name: string; score: string }> | null;
  last_update: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const isTime = (v: unknown): v is string => isText(v) && Number.isFinite(Date.parse(v));

function readOutcome(v: unknown): ProviderOutcome | null {
  if (!isObject(v) || !isText(v.name) || typeof v.price !== 'number' || !Number.isFinite(v.price)) return null;
  const point = typeof v.point === 'number' && Number.isFinite(v.point) ? v.point : undefined;
  return { name: v.name, price: v.price, ...(point !== undefined ? { point } : {}) };
}

function readBookmaker(v: unknown): ProviderBookmaker | null {
  if (!isObject(v) || !isText(v.key) || !Array.isArray(v.markets)) return null;
  const markets: ProviderMarket[] = [];
  for (const m of v.markets) {
    if (!isObject(m) || !isText(m.key) || !Array.isArray(m.outcomes)) continue;
    const outcomes = m.outcomes.map(readOutcome).filter((o): o is ProviderOutcome => o !== null);
    markets.push({ key: m.key, outcomes });
  }
  return { key: v.key, title: isText(v.title) ? v.title : v.key, markets };
}

/** The events of an /odds answer; an item missing its id, teams or start is skipped (the rest are used). */
export function readOddsEvents(body: unknown): OddsEvent[] | null {
  if (!Array.isArray(body)) return null;
  const out: OddsEvent[] = [];
  for (const v of body) {
    if (!isObject(v) || !isText(v.id) || !isText(v.sport_key) || !isTime(v.commence_time)) continue;
    if (!isText(v.home_team) || !isText(v.away_team)) continue;
    const bookmakers = Array.isArray(v.bookmakers)
      ? v.bookmakers.map(readBookmaker).filter((b): b is ProviderBookmaker => b !== null)
      : [];
    out.push({
      id: v.id,
      sport_key: v.sport_key,
      ...(isText(v.sport_title) ? { sport_title: v.sport_title } : {}),
      commence_time: v.commence_time,
      home_team: v.home_team,
      away_team: v.away_team,
      bookmakers,
    });
  }
  return out;
}

/** The events of a /scores answer; malformed items are skipped. */
export function readScoreEvents(body: unknown): ScoreEvent[] | null {
  if (!Array.isArray(body)) return null;
  const out: ScoreEvent[] = [];
  for (const v of body) {
    if (!isObject(v) || !isText(v.id) || !isText(v.sport_key) || !isTime(v.commence_time)) continue;
    if (!isText(v.home_team) || !isText(v.away_team)) continue;
    const scores = Array.isArray(v.scores)
      ? v.scores.filter((s): s is { name: string; score: string } => isObject(s) && isText(s.name) && isText(s.score))
      : null;
    out.push({
      id: v.id,
      sport_key: v.sport_key,
      commence_time: v.commence_time,
      completed: v.completed === true,
      home_team: v.home_team,
      away_team: v.away_team,
      scores,
      last_update: isTime(v.last_update) ? v.last_update : null,
    });
  }
  return out;
}
