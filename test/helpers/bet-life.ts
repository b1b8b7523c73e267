// A settled game and the bet checks a tracker makes on it days later (by ids, codes, labels, aliases): the same answers in memory and from the store.

const MINUTE = 60_000;

/** The game's messages, stamped from `start` (ms): priced a day ahead, moved, live, a market added in play, ended 2-1. */
export function betLife(
  id: string,
  start: number,
): { before: object[]; live: object[]; end: object[]; endedAt: number } {
  const ts = (offsetMs: number): string => new Date(start + offsetMs).toISOString();
  const before = [
    {
      type: 'fixture',
      ts: ts(-24 * 60 * MINUTE),
      event_id: id,
      sport: 'soccer',
      league: { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 },
      home_team: 'Arsenal',
      away_team: 'Chelsea',
      home_logo_id: 'arsenal',
      away_logo_id: 'chelsea',
      start_time: ts(0),
    },
    {
      type: 'markets',
      ts: ts(-24 * 60 * MINUTE),
      event_id: id,
      markets: [
        {
          market_id: 1,
          key: '1x2',
          name: 'Match Result',
          outcomes: [
            // Labels as the simulator writes them: the team's name, not the code.
            { selection_id: 11, code: 'home', label: 'Arsenal', odds: 2.1, team_side: 'home' },
            { selection_id: 12, code: 'draw', label: 'Draw', odds: 3.4 },
            { selection_id: 13, code: 'away', label: 'Chelsea', odds: 3.5, team_side: 'away' },
          ],
        },
        {
          market_id: 2,
          key: 'totals:2.5',
          name: 'Total Goals 2.5',
          outcomes: [
            { selection_id: 21, code: 'over', label: 'Over 2.5', odds: 1.95 },
            { selection_id: 22, code: 'under', label: 'Under 2.5', odds: 1.85 },
          ],
        },
        {
          market_id: 3,
          key: 'asian_handicap:-0.25',
          name: 'Asian Handicap -0.25',
          outcomes: [
            { selection_id: 31, code: 'home', label: 'Arsenal -0.25', odds: 1.9, team_side: 'home' },
            { selection_id: 32, code: 'away', label: 'Chelsea +0.25', odds: 1.9, team_side: 'away' },
          ],
        },
      ],
    },
    { type: 'odds', ts: ts(-60 * MINUTE), event_id: id, changes: [{ selection_id: 11, odds: 1.95 }] },
  ];
  const live = [
    { type: 'status', ts: ts(0), event_id: id, status: 'live' },
    {
      type: 'odds',
      ts: ts(30 * MINUTE),
      event_id: id,
      changes: [
        { selection_id: 11, odds: 1.4 },
        { selection_id: 13, odds: 7.5 },
      ],
    },
    {
      type: 'markets',
      ts: ts(40 * MINUTE),
      event_id: id,
      markets: [
        {
          market_id: 4,
          key: 'btts',
          name: 'Both Teams to Score',
          outcomes: [
            { selection_id: 41, code: 'yes', label: 'Yes', odds: 1.6 },
            { selection_id: 42, code: 'no', label: 'No', odds: 2.3 },
          ],
        },
      ],
    },
  ];
  const endedAt = start + 110 * MINUTE;
  const end = [
    {
      type: 'result',
      ts: new Date(endedAt).toISOString(),
      event_id: id,
      status: 'ended',
      score: { home: 2, away: 1 },
      period_scores: [
        { period: '1H', home: 1, away: 0 },
        { period: '2H', home: 1, away: 1 },
      ],
    },
  ];
  return { before, live, end, endedAt };
}

/** Bet checks by every way a tracker names a selection, with and without odds, singles and a parlay, and misses. */
export function betChecks(id: string): object[] {
  const leg = (l: object): object => ({ event_id: id, ...l });
  const single = (l: object, stake = 10): object => ({ legs: [leg(l)], stake });
  return [
    single({ market_id: 1, selection_id: 11 }),
    single({ market_id: 1, selection_id: 13, odds: 3.6 }),
    ...['1', 'X', '2', 'home', 'draw', 'away', 'Arsenal', 'chelsea', 'Draw'].map((outcome) =>
      single({ market: '1X2', outcome }),
    ),
    single({ market: 'Match Winner', outcome: '1', odds: 2.2 }),
    single({ market: 'Moneyline', outcome: 'away' }),
    single({ market: 'match result', outcome: 'HOME' }),
    single({ market: 'totals:2.5', outcome: 'over' }),
    single({ market: 'Total Goals 2.5', outcome: 'Under 2.5' }),
    single({ market: 'totals:2.50', outcome: 'under', odds: 1.8 }),
    single({ market: 'asian_handicap:-0.25', outcome: 'home' }),
    single({ market: 'Asian Handicap -0.25', outcome: '2' }),
    single({ market: 'btts', outcome: 'yes' }),
    single({ market_id: 4, selection_id: 42, odds: 2.5 }),
    {
      legs: [leg({ market: '1x2', outcome: '1' }), leg({ market: 'totals:2.5', outcome: 'over', odds: 2 })],
      stake: 5,
    },
    // Misses: the same 404 either side.
    single({ market: '1X2', outcome: '3' }),
    single({ market: 'corners', outcome: 'over' }),
    single({ market_id: 1, selection_id: 99 }),
  ];
}
