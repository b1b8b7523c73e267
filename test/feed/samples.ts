// A valid example of every feed message type, shared by the feed tests (clone before mutating).

export const VALID_MESSAGES: Readonly<Record<string, Record<string, unknown>>> = {
  fixture: {
    type: 'fixture',
    ts: '2025-05-10T12:00:00Z',
    event_id: 'ev-1',
    sport: 'soccer',
    league: { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 },
    home_team: 'Arsenal',
    away_team: 'Chelsea',
    start_time: '2025-05-17T15:00:00Z',
    home_logo_id: 'arsenal',
    away_logo_id: 'chelsea_FC-1',
  },
  markets: {
    type: 'markets',
    event_id: 'ev-1',
    markets: [
      {
        market_id: 1,
        key: '1x2',
        name: 'Match Result',
        outcomes: [
          { selection_id: 11, code: 'home', label: 'Arsenal', odds: 2.1, team_side: 'home' },
          { selection_id: 12, code: 'draw', label: 'Draw', odds: 3.4, team_side: null },
          { selection_id: 13, code: 'away', label: 'Chelsea', odds: 3.6, team_side: 'away', is_locked: false },
        ],
      },
      {
        market_id: 2,
        key: 'totals:2.5',
        name: 'Total Goals 2.5',
        outcomes: [
          { selection_id: 21, code: 'over', label: 'Over 2.5', odds: 1.9 },
          { selection_id: 22, code: 'under', label: 'Under 2.5', odds: 1.9, is_locked: true },
        ],
      },
    ],
  },
  odds: {
    type: 'odds',
    ts: '2025-05-17T15:10:00.250+01:00',
    event_id: 'ev-1',
    changes: [
      { selection_id: 11, odds: 2.05 },
      { selection_id: 12, is_locked: true },
      { selection_id: 13, odds: 3.8, is_locked: false },
    ],
  },
  remove_markets: { type: 'remove_markets', event_id: 'ev-1', market_ids: [1, 2] },
  status: { type: 'status', event_id: 'ev-1', status: 'live' },
  score: {
    type: 'score',
    event_id: 'ev-1',
    score: { home: 1, away: 0 },
    period: '2H',
    clock: '67:12',
    period_scores: [
      { period: '1H', home: 1, away: 0 },
      { period: '2H', home: 0, away: 0 },
    ],
    sport_data: { period: '2H', possession: [55, 45] },
    scoreboard: { headers: ['1H', '2H', 'T'], home: [1, 0, 1], away: [0, 0, '0'] },
  },
  result: {
    type: 'result',
    event_id: 'ev-1',
    status: 'ended',
    score: { home: 2, away: 1 },
    period_scores: [
      { period: '1H', home: 1, away: 0 },
      { period: '2H', home: 1, away: 1 },
    ],
    ended_at: '2025-05-17T16:55:00Z',
    winner: null,
  },
  stats: {
    type: 'stats',
    event_id: 'ev-1',
    players: [
      { player_id: 'p-9', name: 'B. Saka', team: 'home', goals: 1, assists: 0 },
      { player_id: 17, name: 'C. Palmer', team: 'away', goals: 1, cards: 1, position: 'MF' },
    ],
    final: true,
  },
  tournament: {
    type: 'tournament',
    tournament_id: 'epl-2025',
    tournament: 'Premier League 2025/26',
    sport: 'soccer',
    sport_id: 1,
  },
  outright_market: {
    type: 'outright_market',
    tournament_id: 'epl-2025',
    market_id: 900,
    market: 'Winner',
    selections: [
      { selection_id: 901, selection: 'Arsenal', odds: 3.5 },
      { selection_id: 902, selection: 'Liverpool', odds: 2.75 },
    ],
  },
  outright_result: {
    type: 'outright_result',
    tournament_id: 'epl-2025',
    market_id: 900,
    winners: [
      { selection_id: 901, dead_heat_factor: 0.5 },
      { selection_id: 902, dead_heat_factor: 0.5 },
    ],
  },
};

export function sample(type: string): Record<string, unknown> {
  const message = VALID_MESSAGES[type];
  if (!message) throw new Error(`no sample for ${type}`);
  return structuredClone(message);
}
