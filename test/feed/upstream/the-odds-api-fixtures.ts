// Provider-shaped fixtures (The Odds API v4 /odds and /scores items) for the adapter's tests.
import type {
  OddsEvent,
  ProviderBookmaker,
  ScoreEvent,
} from '../../../src/feed/upstream/the-odds-api/provider-types.js';

export interface BookPrices {
  key: string;
  /** [home, draw, away] or [home, away] */
  h2h?: number[];
  /** [home point, home price, away price] */
  spread?: [number, number, number];
  /** [point, over price, under price] */
  total?: [number, number, number];
}

export function bookmaker(ev: { home: string; away: string }, p: BookPrices): ProviderBookmaker {
  const markets: ProviderBookmaker['markets'] = [];
  if (p.h2h) {
    const names = p.h2h.length === 3 ? [ev.home, 'Draw', ev.away] : [ev.home, ev.away];
    // The provider lists h2h outcomes in its own order (away first is common): order must not matter.
    const outcomes = names.map((name, i) => ({ name, price: p.h2h![i]! })).reverse();
    markets.push({ key: 'h2h', last_update: '2026-03-01T11:00:00Z', outcomes });
  }
  if (p.spread) {
    const [point, home, away] = p.spread;
    markets.push({
      key: 'spreads',
      outcomes: [
        { name: ev.away, price: away, point: -point },
        { name: ev.home, price: home, point },
      ],
    });
  }
  if (p.total) {
    const [point, over, under] = p.total;
    markets.push({
      key: 'totals',
      outcomes: [
        { name: 'Over', price: over, point },
        { name: 'Under', price: under, point },
      ],
    });
  }
  return { key: p.key, title: p.key.toUpperCase(), last_update: '2026-03-01T11:00:00Z', markets };
}

export function oddsEvent(
  id: string,
  sportKey: string,
  teams: { home: string; away: string },
  commence: string,
  books: BookPrices[],
): OddsEvent {
  return {
    id,
    sport_key: sportKey,
    sport_title: sportKey === 'soccer_epl' ? 'EPL' : sportKey === 'basketball_nba' ? 'NBA' : sportKey,
    commence_time: commence,
    home_team: teams.home,
    away_team: teams.away,
    bookmakers: books.map((b) => bookmaker(teams, b)),
  };
}

export function scoreEvent(
  ev: OddsEvent,
  score: [number, number] | null,
  completed = false,
  lastUpdate: string | null = null,
): ScoreEvent {
  return {
    id: ev.id,
    sport_key: ev.sport_key,
    commence_time: ev.commence_time,
    completed,
    home_team: ev.home_team,
    away_team: ev.away_team,
    scores:
      score === null
        ? null
        : [
            { name: ev.home_team, score: String(score[0]) },
            { name: ev.away_team, score: String(score[1]) },
          ],
    last_update: lastUpdate,
  };
}
