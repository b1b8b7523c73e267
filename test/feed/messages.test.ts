// Feed message schemas: every type accepted when valid, and each rule rejected with the field it concerns.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FEED_MESSAGE_TYPES, playerCounters, validateFeedMessage, type PlayerStats } from '../../src/feed/messages.js';
import { FEED_STATUSES, FINAL_STATUSES } from '../../src/domain/lifecycle.js';
import { SPORTS } from '../../src/domain/sports.js';
import { VALID_MESSAGES, sample } from './samples.js';

type Json = Record<string, unknown>;

/** Sets (or with `undefined`, deletes) the value at a slash path such as `markets/0/outcomes/1/odds`. */
function setPath(root: Json, path: string, value: unknown): Json {
  const parts = path.split('/');
  let node: unknown = root;
  for (const part of parts.slice(0, -1)) {
    node = (node as Record<string, unknown>)[part];
  }
  const container = node as Record<string, unknown>;
  const last = parts[parts.length - 1]!;
  if (value === undefined) delete container[last];
  else container[last] = value;
  return root;
}

function variant(type: string, edits: Record<string, unknown>): Json {
  const message = sample(type);
  for (const [path, value] of Object.entries(edits)) setPath(message, path, value);
  return message;
}

function rejection(value: unknown): string {
  const result = validateFeedMessage(value);
  assert.equal(result.ok, false, `expected a rejection, got ok for ${JSON.stringify(value).slice(0, 200)}`);
  return result.message as string;
}

const DATE_TIME = 'must be an ISO 8601 date-time with a time zone (e.g. 2024-05-01T18:00:00Z)';

describe('validateFeedMessage accepts', () => {
  it('has a valid sample for every message type', () => {
    assert.deepEqual(Object.keys(VALID_MESSAGES).sort(), [...FEED_MESSAGE_TYPES].sort());
    assert.equal(FEED_MESSAGE_TYPES.length, 11);
  });

  for (const [type, message] of Object.entries(VALID_MESSAGES)) {
    it(`a valid '${type}' message, returned as the same object`, () => {
      const value = structuredClone(message);
      const result = validateFeedMessage(value);
      assert.deepEqual(result, { ok: true, message: value });
      assert.equal(result.message, value);
    });
  }

  const accepted: Array<[string, Json]> = [
    [
      'unknown extra properties at every level',
      variant('markets', { producer: 'x', 'markets/0/extra': { a: 1 }, 'markets/0/outcomes/0/rank': 3 }),
    ],
    [
      'a fixture without ts, tier and logos',
      variant('fixture', { ts: undefined, 'league/tier': undefined, home_logo_id: undefined, away_logo_id: undefined }),
    ],
    ['null logo ids', variant('fixture', { home_logo_id: null, away_logo_id: null })],
    ['every known sport key', variant('fixture', { sport: 'table_tennis' })],
    ['a market key with + and trailing zeros', variant('markets', { 'markets/1/key': 'asian_handicap:+0.50' })],
    ['ids up to 2^53 - 1', variant('odds', { 'changes/0/selection_id': Number.MAX_SAFE_INTEGER })],
    ['id 0', variant('odds', { 'changes/0/selection_id': 0 })],
    ['odds exactly 1.01', variant('odds', { 'changes/0/odds': 1.01 })],
    ['remove_markets with all: true', { type: 'remove_markets', event_id: 'ev-1', all: true }],
    ['remove_markets with market_ids and all: false', variant('remove_markets', { all: false })],
    ['a score with only the score', { type: 'score', event_id: 'ev-1', score: { home: 0, away: 0 } }],
    [
      'a score with null clock, sport_data and scoreboard',
      variant('score', { clock: null, sport_data: null, scoreboard: null }),
    ],
    ['an empty scoreboard', variant('score', { scoreboard: { headers: [], home: [], away: [] } })],
    [
      'a result without optional fields',
      { type: 'result', event_id: 'ev-1', status: 'cancelled', score: { home: 0, away: 0 } },
    ],
    [
      'a walkover result with a winner',
      { type: 'result', event_id: 'ev-1', status: 'walkover', score: { home: 0, away: 0 }, winner: 'away' },
    ],
    ['stats without final and with no players', { type: 'stats', event_id: 'ev-1', players: [] }],
    ['an outright result void', { type: 'outright_result', tournament_id: 't', market_id: 1, void: true }],
    ['an outright result with winners and void: false', variant('outright_result', { void: false })],
    ['a dead heat factor of exactly 1', variant('outright_result', { 'winners/0/dead_heat_factor': 1 })],
    ['ts with a lower-case t and z', variant('status', { ts: '2025-05-17t15:00:00z' })],
    ['ts with fractional seconds and an offset', variant('status', { ts: '2025-05-17T15:00:00.123456-03:30' })],
    ['an event id with unicode letters', variant('status', { event_id: 'évènement-ü-1' })],
  ];
  for (const [name, value] of accepted) {
    it(name, () => {
      const result = validateFeedMessage(value);
      assert.equal(result.ok, true, result.ok ? '' : result.message);
    });
  }

  it('every status of FEED_STATUSES in a status message', () => {
    for (const status of FEED_STATUSES) {
      assert.equal(validateFeedMessage(variant('status', { status })).ok, true, status);
    }
  });

  it('every final status in a result message', () => {
    for (const status of FINAL_STATUSES) {
      assert.equal(validateFeedMessage(variant('result', { status })).ok, true, status);
    }
  });

  it('every sport with its own sport_id in a tournament message', () => {
    for (const s of SPORTS) {
      const result = validateFeedMessage(variant('tournament', { sport: s.key, sport_id: s.sportId }));
      assert.equal(result.ok, true, s.key);
    }
  });
});

describe('validateFeedMessage rejects', () => {
  const long = (n: number): string => 'x'.repeat(n);
  const cases: Array<[string, unknown, string]> = [
    // envelope
    ['an array', [], 'message must be a JSON object (got array)'],
    ['null', null, 'message must be a JSON object (got null)'],
    ['a string', 'odds', 'message must be a JSON object (got string)'],
    ['a message without type', { event_id: 'ev-1' }, "missing field 'type'"],
    ['a numeric type', { type: 7 }, 'type: must be a string (got integer)'],
    ['a non-string ts', variant('status', { ts: 12 }), 'ts: must be a string'],
    ['a ts that is not a date-time', variant('status', { ts: 'now' }), `ts: ${DATE_TIME}`],
    [
      'a ts on a leap second Date.parse cannot read',
      variant('status', { ts: '2016-12-31T23:59:60Z' }),
      `ts: ${DATE_TIME}`,
    ],
    [
      'a ts with a zone name suffix',
      variant('odds', { ts: '2025-05-17T15:00:00Z[Europe/London]' }),
      `ts: ${DATE_TIME}`,
    ],
    // ids
    ['a missing event_id', variant('fixture', { event_id: undefined }), "missing field 'event_id'"],
    ['an empty event_id', variant('odds', { event_id: '' }), 'event_id: must not be empty'],
    [
      'an event_id with a space',
      variant('odds', { event_id: 'ev 1' }),
      'event_id: must not contain whitespace or control characters',
    ],
    [
      'an event_id with a control character',
      variant('odds', { event_id: 'ev\u00071' }),
      'event_id: must not contain whitespace or control characters',
    ],
    [
      'an event_id longer than 128',
      variant('odds', { event_id: long(129) }),
      'event_id: must be at most 128 characters',
    ],
    ['a numeric event_id', variant('status', { event_id: 42 }), 'event_id: must be a string'],
    [
      'a tournament_id with a tab',
      variant('tournament', { tournament_id: 'a\tb' }),
      'tournament_id: must not contain whitespace or control characters',
    ],
    // fixture
    [
      'an unknown sport',
      variant('fixture', { sport: 'curling' }),
      `sport: unknown sport 'curling' (known: ${SPORTS.map((s) => s.key).join(', ')})`,
    ],
    [
      'a league slug with capitals and spaces',
      variant('fixture', { 'league/slug': 'Premier League' }),
      "league/slug: must contain only lower-case letters, digits and '-'",
    ],
    ['a league without country', variant('fixture', { 'league/country': undefined }), "missing field 'league/country'"],
    ['a league tier of 6', variant('fixture', { 'league/tier': 6 }), 'league/tier: must be <= 5'],
    ['a league tier of 0', variant('fixture', { 'league/tier': 0 }), 'league/tier: must be >= 1'],
    ['a fractional league tier', variant('fixture', { 'league/tier': 1.5 }), 'league/tier: must be an integer'],
    ['a league that is a string', variant('fixture', { league: 'epl' }), 'league: must be an object'],
    ['a blank home team', variant('fixture', { home_team: '   ' }), 'home_team: must not be blank'],
    ['an empty away team', variant('fixture', { away_team: '' }), 'away_team: must not be empty'],
    ['a start_time in words', variant('fixture', { start_time: 'tomorrow' }), `start_time: ${DATE_TIME}`],
    [
      'a start_time on 30 February',
      variant('fixture', { start_time: '2025-02-30T10:00:00Z' }),
      `start_time: ${DATE_TIME}`,
    ],
    [
      'a start_time without a time zone',
      variant('fixture', { start_time: '2025-05-17T15:00:00' }),
      `start_time: ${DATE_TIME}`,
    ],
    [
      'a logo id with a space',
      variant('fixture', { home_logo_id: 'has space' }),
      "home_logo_id: must be 1-64 characters among A-Z, a-z, 0-9, '_' and '-'",
    ],
    [
      'a logo id of 65 characters',
      variant('fixture', { away_logo_id: long(65) }),
      "away_logo_id: must be 1-64 characters among A-Z, a-z, 0-9, '_' and '-'",
    ],
    ['a numeric logo id', variant('fixture', { away_logo_id: 5 }), 'away_logo_id: must be a string or null'],
    // markets
    [
      'odds below 1.01',
      variant('markets', { 'markets/0/outcomes/1/odds': 1.0 }),
      'markets/0/outcomes/1/odds: must be >= 1.01',
    ],
    [
      'odds as a string',
      variant('markets', { 'markets/0/outcomes/1/odds': '2.0' }),
      'markets/0/outcomes/1/odds: must be a number',
    ],
    ['an empty markets array', variant('markets', { markets: [] }), 'markets: must not be empty'],
    [
      'a market without outcomes',
      variant('markets', { 'markets/1/outcomes': [] }),
      'markets/1/outcomes: must not be empty',
    ],
    [
      'a market with 201 outcomes',
      variant('markets', {
        'markets/0/outcomes': Array.from({ length: 201 }, (_, i) => ({
          selection_id: i,
          code: `c${i}`,
          label: `L${i}`,
          odds: 2,
        })),
      }),
      'markets/0/outcomes: must have at most 200 items',
    ],
    [
      'more than 5000 markets',
      variant('markets', {
        markets: Array.from({ length: 5001 }, (_, i) => ({
          market_id: i,
          key: `totals:${i}.5`,
          name: `Total ${i}.5`,
          outcomes: [{ selection_id: i, code: 'over', label: 'Over', odds: 1.9 }],
        })),
      }),
      'markets: must have at most 5000 items',
    ],
    ['a negative market_id', variant('markets', { 'markets/0/market_id': -1 }), 'markets/0/market_id: must be >= 0'],
    [
      'a market_id of 2^53',
      variant('markets', { 'markets/0/market_id': 2 ** 53 }),
      'markets/0/market_id: must be below 2^53',
    ],
    [
      'a fractional market_id',
      variant('markets', { 'markets/0/market_id': 1.5 }),
      'markets/0/market_id: must be an integer',
    ],
    [
      'a string market_id',
      variant('markets', { 'markets/0/market_id': '1' }),
      'markets/0/market_id: must be an integer',
    ],
    [
      'a market key outside the grammar',
      variant('markets', { 'markets/1/key': 'totals:abc' }),
      "markets/1/key: 'totals:abc' is not a valid market key (family[@period][:line], e.g. totals:2.5)",
    ],
    ['an empty market key', variant('markets', { 'markets/1/key': '' }), 'markets/1/key: must not be empty'],
    ['a market without a name', variant('markets', { 'markets/0/name': undefined }), "missing field 'markets/0/name'"],
    [
      'a duplicate market_id',
      variant('markets', { 'markets/1/market_id': 1 }),
      'markets/1/market_id: duplicate market_id 1 in this message',
    ],
    [
      'a selection_id used in two markets',
      variant('markets', { 'markets/1/outcomes/0/selection_id': 11 }),
      'markets/1/outcomes/0/selection_id: duplicate selection_id 11 in this message',
    ],
    [
      'two outcomes of a market with one code',
      variant('markets', { 'markets/0/outcomes/1/code': 'home' }),
      "markets/0/outcomes/1/code: duplicate code 'home' in this market",
    ],
    [
      'an unknown team_side',
      variant('markets', { 'markets/0/outcomes/0/team_side': 'both' }),
      'markets/0/outcomes/0/team_side: must be "home", "away" or null',
    ],
    [
      'a string is_locked',
      variant('markets', { 'markets/0/outcomes/0/is_locked': 'yes' }),
      'markets/0/outcomes/0/is_locked: must be a boolean',
    ],
    [
      'an outcome without label',
      variant('markets', { 'markets/0/outcomes/2/label': undefined }),
      "missing field 'markets/0/outcomes/2/label'",
    ],
    [
      'an outcome with an empty code',
      variant('markets', { 'markets/0/outcomes/2/code': '' }),
      'markets/0/outcomes/2/code: must not be empty',
    ],
    // odds
    ['an empty changes array', variant('odds', { changes: [] }), 'changes: must not be empty'],
    [
      'a change with neither odds nor is_locked',
      variant('odds', { 'changes/1/is_locked': undefined }),
      'changes/1: must carry odds or is_locked',
    ],
    ['a change with odds 1.005', variant('odds', { 'changes/0/odds': 1.005 }), 'changes/0/odds: must be >= 1.01'],
    [
      'a change without selection_id',
      variant('odds', { 'changes/2/selection_id': undefined }),
      "missing field 'changes/2/selection_id'",
    ],
    [
      'more than 100000 changes',
      variant('odds', { changes: Array.from({ length: 100_001 }, (_, i) => ({ selection_id: i, odds: 2 })) }),
      'changes: must have at most 100000 items',
    ],
    // remove_markets
    [
      'remove_markets with neither market_ids nor all',
      { type: 'remove_markets', event_id: 'ev-1' },
      "missing field 'market_ids' (or all: true)",
    ],
    [
      'remove_markets with all: false only',
      { type: 'remove_markets', event_id: 'ev-1', all: false },
      "missing field 'market_ids' (or all: true)",
    ],
    [
      'remove_markets with both',
      variant('remove_markets', { all: true }),
      'market_ids: give either market_ids or all: true, not both',
    ],
    [
      'remove_markets with an empty list',
      variant('remove_markets', { market_ids: [] }),
      'market_ids: must not be empty',
    ],
    [
      'remove_markets with a string id',
      variant('remove_markets', { market_ids: [1, '2'] }),
      'market_ids/1: must be an integer',
    ],
    [
      'remove_markets with all: "yes"',
      { type: 'remove_markets', event_id: 'ev-1', all: 'yes' },
      'all: must be a boolean',
    ],
    // status
    [
      'status ended (only a result ends an event)',
      variant('status', { status: 'ended' }),
      `status: must be one of ${FEED_STATUSES.map((s) => `"${s}"`).join(', ')}`,
    ],
    [
      'status prematch',
      variant('status', { status: 'prematch' }),
      `status: must be one of ${FEED_STATUSES.map((s) => `"${s}"`).join(', ')}`,
    ],
    ['a status message without status', variant('status', { status: undefined }), "missing field 'status'"],
    // score
    ['a score message without score', variant('score', { score: undefined }), "missing field 'score'"],
    ['a negative score', variant('score', { 'score/home': -1 }), 'score/home: must be >= 0'],
    ['a fractional score', variant('score', { 'score/away': 0.5 }), 'score/away: must be an integer'],
    ['a numeric clock', variant('score', { clock: 5 }), 'clock: must be a string or null'],
    ['a numeric period', variant('score', { period: 2 }), 'period: must be a string'],
    [
      'a scoreboard row shorter than its headers',
      variant('score', { 'scoreboard/away': [0, 0] }),
      'scoreboard/away: must have 3 cells, one per header (has 2)',
    ],
    [
      'a scoreboard row longer than its headers',
      variant('score', { 'scoreboard/home': [1, 0, 1, 9] }),
      'scoreboard/home: must have 3 cells, one per header (has 4)',
    ],
    [
      'a boolean scoreboard cell',
      variant('score', { 'scoreboard/home/1': true }),
      'scoreboard/home/1: must be a number or a string',
    ],
    [
      'a scoreboard without headers',
      variant('score', { 'scoreboard/headers': undefined }),
      "missing field 'scoreboard/headers'",
    ],
    [
      'a period score without period',
      variant('score', { 'period_scores/0/period': undefined }),
      "missing field 'period_scores/0/period'",
    ],
    ['a negative period score', variant('score', { 'period_scores/1/away': -2 }), 'period_scores/1/away: must be >= 0'],
    ['sport_data that is an array', variant('score', { sport_data: [1] }), 'sport_data: must be an object or null'],
    // result
    [
      'a result with status live',
      variant('result', { status: 'live' }),
      `status: must be one of ${FINAL_STATUSES.map((s) => `"${s}"`).join(', ')}`,
    ],
    ['a result winner "draw"', variant('result', { winner: 'draw' }), 'winner: must be "home", "away" or null'],
    ['a result ended_at in words', variant('result', { ended_at: 'yesterday' }), `ended_at: ${DATE_TIME}`],
    ['a result without score', variant('result', { score: undefined }), "missing field 'score'"],
    // stats
    [
      'a player on a neutral team',
      variant('stats', { 'players/0/team': 'neutral' }),
      'players/0/team: must be "home" or "away"',
    ],
    [
      'a fractional player_id',
      variant('stats', { 'players/1/player_id': 1.5 }),
      'players/1/player_id: must be a string or an integer',
    ],
    ['a negative player_id', variant('stats', { 'players/1/player_id': -3 }), 'players/1/player_id: must be >= 0'],
    [
      'a player_id with a space',
      variant('stats', { 'players/0/player_id': 'p 9' }),
      'players/0/player_id: must not contain whitespace or control characters',
    ],
    [
      'two lines for one player',
      variant('stats', { 'players/1/player_id': 'p-9' }),
      'players/1/player_id: duplicate player_id "p-9" in this message',
    ],
    ['a player without name', variant('stats', { 'players/0/name': undefined }), "missing field 'players/0/name'"],
    ['final as a string', variant('stats', { final: 'yes' }), 'final: must be a boolean'],
    ['players that is not an array', variant('stats', { players: {} }), 'players: must be an array'],
    // tournament
    [
      'a tournament of an unknown sport',
      variant('tournament', { sport: 'quidditch' }),
      `sport: unknown sport 'quidditch' (known: ${SPORTS.map((s) => s.key).join(', ')})`,
    ],
    [
      'a sport_id of another sport',
      variant('tournament', { sport_id: 2 }),
      "sport_id: must be 1 for sport 'soccer' (got 2)",
    ],
    ['a string sport_id', variant('tournament', { sport_id: '1' }), 'sport_id: must be an integer'],
    ['a tournament without name', variant('tournament', { tournament: undefined }), "missing field 'tournament'"],
    [
      'a tournament name with a NUL character',
      variant('tournament', { tournament: 'Cup\u0000 2026' }),
      'tournament: must not be blank or contain control characters',
    ],
    [
      'a blank outright selection name',
      variant('outright_market', { 'selections/0/selection': '  ' }),
      'selections/0/selection: must not be blank or contain control characters',
    ],
    [
      'an outright market name with a line break',
      variant('outright_market', { market: 'Winner\nof the cup' }),
      'market: must not be blank or contain control characters',
    ],
    // outright_market
    [
      'an outright market with 1001 selections',
      variant('outright_market', {
        selections: Array.from({ length: 1001 }, (_, i) => ({ selection_id: i, selection: `S${i}`, odds: 50 })),
      }),
      'selections: must have at most 1000 items',
    ],
    [
      'an outright market without selections',
      variant('outright_market', { selections: [] }),
      'selections: must not be empty',
    ],
    [
      'outright odds of 1',
      variant('outright_market', { 'selections/1/odds': 1 }),
      'selections/1/odds: must be >= 1.01',
    ],
    [
      'a duplicate outright selection',
      variant('outright_market', { 'selections/1/selection_id': 901 }),
      'selections/1/selection_id: duplicate selection_id 901 in this message',
    ],
    [
      'an outright market without market_id',
      variant('outright_market', { market_id: undefined }),
      "missing field 'market_id'",
    ],
    // outright_result
    [
      'an outright result with winners and void',
      variant('outright_result', { void: true }),
      'winners: give either winners or void: true, not both',
    ],
    [
      'an outright result with neither',
      { type: 'outright_result', tournament_id: 't', market_id: 1 },
      "missing field 'winners' (or void: true)",
    ],
    [
      'a dead heat factor of 0',
      variant('outright_result', { 'winners/0/dead_heat_factor': 0 }),
      'winners/0/dead_heat_factor: must be > 0',
    ],
    [
      'a dead heat factor above 1',
      variant('outright_result', { 'winners/1/dead_heat_factor': 1.5 }),
      'winners/1/dead_heat_factor: must be <= 1',
    ],
    ['an empty winners list', variant('outright_result', { winners: [] }), 'winners: must not be empty'],
    [
      'a winner named twice',
      variant('outright_result', { 'winners/1/selection_id': 901 }),
      'winners/1/selection_id: duplicate selection_id 901 in this message',
    ],
  ];

  for (const [name, value, expected] of cases) {
    it(`${name}: "${expected.length > 90 ? `${expected.slice(0, 90)}…` : expected}"`, () => {
      assert.equal(rejection(value), expected);
    });
  }

  it('an unknown type, naming it and listing the known ones', () => {
    assert.equal(
      rejection({ type: 'foo', event_id: 'ev-1' }),
      `unknown message type 'foo' (expected one of ${FEED_MESSAGE_TYPES.join(', ')})`,
    );
  });

  it('checks the schema of the named type, not of another (an odds message with markets)', () => {
    const value = { ...sample('markets'), type: 'odds' };
    assert.equal(rejection(value), "missing field 'changes'");
  });
});

describe('playerCounters', () => {
  it('keeps numeric extra properties and ignores the rest', () => {
    const player = {
      player_id: 17,
      name: 'C. Palmer',
      team: 'away',
      goals: 1,
      cards: 1,
      position: 'MF',
      plus_minus: -2,
    } as PlayerStats;
    assert.deepEqual(playerCounters(player), { goals: 1, cards: 1, plus_minus: -2 });
  });
});

describe('validateFeedMessage at volume', () => {
  it('validates 100k odds messages (sanity: compiled validators, no timing assertion)', () => {
    let accepted = 0;
    for (let i = 0; i < 100_000; i++) {
      const result = validateFeedMessage({
        type: 'odds',
        ts: '2025-05-17T15:10:00Z',
        event_id: `ev-${i % 500}`,
        changes: [
          { selection_id: i, odds: 1.5 + (i % 100) / 10 },
          { selection_id: i + 1, is_locked: i % 2 === 0 },
        ],
      });
      if (result.ok) accepted++;
    }
    assert.equal(accepted, 100_000);
  });
});
