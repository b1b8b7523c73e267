// openfootball conversion: a full season becomes a valid, chronological, deterministic feed with the real scores.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { convertOpenfootball } from '../../src/feed/openfootball.js';
import {
  validateFeedMessage,
  type FeedMessage,
  type FixtureMessage,
  type MarketsMessage,
  type ResultMessage,
  type ScoreMessage,
} from '../../src/feed/messages.js';

// Copies of /work/shared/data/openfootball (openfootball/football.json, public domain), read from the
// source tree: the compiled test runs from dist/test/feed/.
const FIXTURES = new URL('../../../test/feed/fixtures/openfootball/', import.meta.url);

function loadSeason(file: string): unknown {
  return JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8'));
}

const SEASONS = [
  {
    file: 'en.1.2023-24.json',
    matches: 380,
    prefix: 'of-en-1-2023-24',
    league: { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 },
  },
  {
    file: 'de.1.2023-24.json',
    matches: 306,
    prefix: 'of-de-1-2023-24',
    league: { slug: 'germany-bundesliga', name: 'Bundesliga', country: 'Germany', tier: 1 },
  },
];

const converted = new Map(SEASONS.map((s) => [s.file, convertOpenfootball(loadSeason(s.file))]));

function messagesOf(file: string): FeedMessage[] {
  return converted.get(file)!;
}

function eventMessages(messages: FeedMessage[], eventId: string): FeedMessage[] {
  return messages.filter((m) => 'event_id' in m && m.event_id === eventId);
}

function findEvent(messages: FeedMessage[], home: string, away: string, date: string): string {
  const fixture = messages.find(
    (m): m is FixtureMessage =>
      m.type === 'fixture' && m.home_team === home && m.away_team === away && m.start_time.startsWith(date),
  );
  assert.ok(fixture, `no fixture ${home} v ${away} on ${date}`);
  return fixture.event_id;
}

function countByType(messages: FeedMessage[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of messages) counts[m.type] = (counts[m.type] ?? 0) + 1;
  return counts;
}

function allIds(messages: FeedMessage[]): { markets: number[]; selections: number[] } {
  const markets: number[] = [];
  const selections: number[] = [];
  for (const m of messages) {
    if (m.type !== 'markets') continue;
    for (const market of m.markets) {
      markets.push(market.market_id);
      for (const o of market.outcomes) selections.push(o.selection_id);
    }
  }
  return { markets, selections };
}

describe('convertOpenfootball on the shared seasons', () => {
  for (const season of SEASONS) {
    describe(season.file, () => {
      const messages = messagesOf(season.file);

      it(`emits fixture, markets, live, HT score, FT score and result for each of the ${season.matches} played matches`, () => {
        assert.equal(messages.length, season.matches * 6);
        assert.deepEqual(countByType(messages), {
          fixture: season.matches,
          markets: season.matches,
          status: season.matches,
          score: season.matches * 2,
          result: season.matches,
        });
      });

      it('emits only messages that pass validateFeedMessage', () => {
        const failures = messages
          .map((m) => validateFeedMessage(m))
          .flatMap((r, i) => (r.ok ? [] : [`#${i}: ${r.message}`]));
        assert.deepEqual(failures, []);
      });

      it('orders the messages by ts', () => {
        for (let i = 1; i < messages.length; i++) {
          assert.ok(Date.parse(messages[i - 1]!.ts!) <= Date.parse(messages[i]!.ts!), `message ${i} goes back in time`);
        }
      });

      it('gives every match a unique, deterministic event id', () => {
        const ids = messages.filter((m): m is FixtureMessage => m.type === 'fixture').map((m) => m.event_id);
        assert.equal(new Set(ids).size, season.matches);
        assert.ok(ids.includes(`${season.prefix}-m001`));
        assert.ok(ids.includes(`${season.prefix}-m${String(season.matches).padStart(3, '0')}`));
        assert.ok(ids.every((id) => /^of-[a-z]{2}-1-2023-24-m\d{3}$/.test(id)));
      });

      it('derives the league from the season name', () => {
        const fixture = messages.find((m): m is FixtureMessage => m.type === 'fixture')!;
        assert.deepEqual(fixture.league, season.league);
        assert.equal(fixture.sport, 'soccer');
      });

      it('numbers markets and selections uniquely across the season', () => {
        const { markets, selections } = allIds(messages);
        assert.equal(markets.length, season.matches * 3);
        assert.equal(new Set(markets).size, markets.length);
        assert.equal(selections.length, season.matches * 7);
        assert.equal(new Set(selections).size, selections.length);
      });

      it('sends each event its messages in lifecycle order, the markets right after the fixture', () => {
        for (let i = 0; i < messages.length; i++) {
          if (messages[i]!.type === 'fixture') assert.equal(messages[i + 1]!.type, 'markets');
        }
        const eventId = `${season.prefix}-m100`;
        assert.deepEqual(
          eventMessages(messages, eventId).map((m) => (m.type === 'score' ? `score ${m.period}` : m.type)),
          ['fixture', 'markets', 'status', 'score HT', 'score 2H', 'result'],
        );
      });

      it('is deterministic', () => {
        assert.deepEqual(convertOpenfootball(loadSeason(season.file)), messages);
      });
    });
  }

  it('never gives two seasons the same market or selection id', () => {
    const en = allIds(messagesOf('en.1.2023-24.json'));
    const de = allIds(messagesOf('de.1.2023-24.json'));
    const enIds = new Set([...en.markets, ...en.selections]);
    assert.equal([...de.markets, ...de.selections].filter((id) => enIds.has(id)).length, 0);
  });

  it('replays Burnley 0-3 Manchester City (2023-08-11, HT 0-2) minute by minute', () => {
    const messages = messagesOf('en.1.2023-24.json');
    const eventId = findEvent(messages, 'Burnley FC', 'Manchester City FC', '2023-08-11');
    assert.equal(eventId, 'of-en-1-2023-24-m001');
    const [fixture, markets, live, half, full, result] = eventMessages(messages, eventId) as [
      FixtureMessage,
      MarketsMessage,
      FeedMessage,
      ScoreMessage,
      ScoreMessage,
      ResultMessage,
    ];
    assert.deepEqual(fixture, {
      type: 'fixture',
      ts: '2023-08-04T20:00:00.000Z',
      event_id: eventId,
      sport: 'soccer',
      league: { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 },
      home_team: 'Burnley FC',
      away_team: 'Manchester City FC',
      start_time: '2023-08-11T20:00:00.000Z',
      home_logo_id: 'burnley-fc',
      away_logo_id: 'manchester-city-fc',
    });
    assert.equal(markets.ts, fixture.ts);
    assert.deepEqual(
      markets.markets.map((m) => [m.key, m.outcomes.map((o) => `${o.code}@${o.odds}:${String(o.team_side)}`)]),
      [
        ['1x2', ['home@2.4:home', 'draw@3.3:null', 'away@2.9:away']],
        ['totals:2.5', ['over@1.9:null', 'under@1.9:null']],
        ['btts', ['yes@1.8:null', 'no@1.95:null']],
      ],
    );
    assert.deepEqual(live, { type: 'status', ts: '2023-08-11T20:00:00.000Z', event_id: eventId, status: 'live' });
    assert.deepEqual(half, {
      type: 'score',
      ts: '2023-08-11T20:47:00.000Z',
      event_id: eventId,
      score: { home: 0, away: 2 },
      period: 'HT',
      clock: '45:00',
      period_scores: [{ period: '1H', home: 0, away: 2 }],
    });
    assert.deepEqual(full, {
      type: 'score',
      ts: '2023-08-11T21:35:00.000Z',
      event_id: eventId,
      score: { home: 0, away: 3 },
      period: '2H',
      clock: '90:00',
      period_scores: [
        { period: '1H', home: 0, away: 2 },
        { period: '2H', home: 0, away: 1 },
      ],
    });
    assert.deepEqual(result, {
      type: 'result',
      ts: '2023-08-11T21:50:00.000Z',
      event_id: eventId,
      status: 'ended',
      score: { home: 0, away: 3 },
      period_scores: [
        { period: '1H', home: 0, away: 2 },
        { period: '2H', home: 0, away: 1 },
      ],
      ended_at: '2023-08-11T21:50:00.000Z',
    });
  });

  const knownResults: Array<[string, string, string, string, [number, number], [number, number]]> = [
    ['en.1.2023-24.json', 'Arsenal FC', 'Nottingham Forest FC', '2023-08-12', [2, 0], [2, 1]],
    ['en.1.2023-24.json', 'Brighton & Hove Albion FC', 'Luton Town FC', '2023-08-12', [1, 0], [4, 1]],
    ['de.1.2023-24.json', 'SV Werder Bremen', 'FC Bayern München', '2023-08-18', [0, 1], [0, 4]],
    ['de.1.2023-24.json', 'Bayer 04 Leverkusen', 'RB Leipzig', '2023-08-19', [2, 1], [3, 2]],
    // openfootball omits the half-time score of goalless games: it is 0-0.
    ['en.1.2023-24.json', 'AFC Bournemouth', 'Chelsea FC', '2023-09-17', [0, 0], [0, 0]],
    ['de.1.2023-24.json', 'RB Leipzig', 'VfL Bochum 1848', '2023-10-07', [0, 0], [0, 0]],
  ];
  for (const [file, home, away, date, ht, ft] of knownResults) {
    it(`${home} ${ft.join('-')} ${away} (${date}) has HT ${ht.join('-')} and FT ${ft.join('-')}`, () => {
      const messages = messagesOf(file);
      const events = eventMessages(messages, findEvent(messages, home, away, date));
      const scores = events.filter((m): m is ScoreMessage => m.type === 'score');
      const result = events.find((m): m is ResultMessage => m.type === 'result')!;
      assert.deepEqual(
        scores.map((s) => [s.period, s.score.home, s.score.away]),
        [
          ['HT', ...ht],
          ['2H', ...ft],
        ],
      );
      assert.deepEqual(result.score, { home: ft[0], away: ft[1] });
      assert.deepEqual(result.period_scores, [
        { period: '1H', home: ht[0], away: ht[1] },
        { period: '2H', home: ft[0] - ht[0], away: ft[1] - ht[1] },
      ]);
    });
  }

  it('derives German logo ids without diacritics', () => {
    const fixture = messagesOf('de.1.2023-24.json').find(
      (m): m is FixtureMessage => m.type === 'fixture' && m.away_team === 'FC Bayern München',
    )!;
    assert.equal(fixture.away_logo_id, 'fc-bayern-munchen');
  });
});

describe('convertOpenfootball on small seasons', () => {
  const match = (extra: Record<string, unknown>): Record<string, unknown> => ({
    round: 'Matchday 1',
    date: '2024-08-17',
    time: '15:00',
    team1: 'Home FC',
    team2: 'Away FC',
    score: { ht: [1, 0], ft: [2, 1] },
    ...extra,
  });
  const season = (name: string, matches: unknown[]): unknown => ({ name, matches });

  it('gives a match without a score only its fixture and markets', () => {
    const messages = convertOpenfootball(
      season('English Premier League 2024/25', [match({ score: undefined }), match({ score: {} })]),
    );
    assert.deepEqual(
      messages.map((m) => m.type),
      ['fixture', 'markets', 'fixture', 'markets'],
    );
  });

  it('kicks off at 15:00 (read as UTC) when the time is missing', () => {
    const [fixture] = convertOpenfootball(season('English Premier League 2024/25', [match({ time: undefined })])) as [
      FixtureMessage,
    ];
    assert.equal(fixture.start_time, '2024-08-17T15:00:00.000Z');
    assert.equal(fixture.ts, '2024-08-10T15:00:00.000Z');
  });

  it('sorts matches listed out of order by time, and pads event ids to the match count', () => {
    const matches = Array.from({ length: 1200 }, (_, i) =>
      match({ date: i === 0 ? '2024-09-30' : '2024-08-17', team1: `Home ${i}` }),
    );
    const messages = convertOpenfootball(season('English Premier League 2024/25', matches));
    const fixtures = messages.filter((m): m is FixtureMessage => m.type === 'fixture');
    assert.equal(fixtures[0]!.event_id, 'of-en-1-2024-25-m0002');
    assert.equal(fixtures[fixtures.length - 1]!.event_id, 'of-en-1-2024-25-m0001');
    for (let i = 1; i < messages.length; i++) assert.ok(messages[i - 1]!.ts! <= messages[i]!.ts!);
  });

  it('takes the league, event id code and id base from the options', () => {
    const league = { slug: 'netherlands-eredivisie', name: 'Eredivisie', country: 'Netherlands', tier: 1 };
    const messages = convertOpenfootball(season('Eredivisie 2024/25', [match({})]), {
      league,
      code: 'nl.1',
      idBase: 5000,
    });
    const [fixture, markets] = messages as [FixtureMessage, MarketsMessage];
    assert.deepEqual(fixture.league, league);
    assert.equal(fixture.event_id, 'of-nl-1-2024-25-m001');
    assert.deepEqual(
      markets.markets.map((m) => [m.market_id, m.outcomes.map((o) => o.selection_id)]),
      [
        [5101, [5111, 5112, 5113]],
        [5102, [5121, 5122]],
        [5103, [5131, 5132]],
      ],
    );
  });

  it('applies tier 1 unless the league option says otherwise', () => {
    const league = { slug: 'england-championship', name: 'Championship', country: 'England', tier: 2 };
    const [fixture] = convertOpenfootball(season('English Championship 2024/25', [match({})]), {
      league,
      code: 'en.2',
    }) as [FixtureMessage];
    assert.equal(fixture.league.tier, 2);
    assert.equal(fixture.event_id, 'of-en-2-2024-25-m001');
  });

  it('refuses a season name it cannot read without a league option', () => {
    assert.throws(
      () => convertOpenfootball(season('Eredivisie 2024/25', [match({})])),
      /cannot derive the league from 'Eredivisie 2024\/25'; pass opts.league/,
    );
  });

  it('plays out extra time and a shoot-out: the score includes extra time, the shoot-out decides the winner', () => {
    const cup = match({ score: { ht: [0, 1], ft: [1, 1], et: [2, 2], p: [4, 3] } });
    const messages = convertOpenfootball(season('English FA Cup 2024/25', [cup]));
    assert.ok(messages.every((m) => validateFeedMessage(m).ok));
    const scores = messages.filter((m): m is ScoreMessage => m.type === 'score');
    assert.deepEqual(
      scores.map((s) => [s.period, s.clock, s.score]),
      [
        ['HT', '45:00', { home: 0, away: 1 }],
        ['2H', '90:00', { home: 1, away: 1 }],
        ['ET', '120:00', { home: 2, away: 2 }],
      ],
    );
    const result = messages.find((m): m is ResultMessage => m.type === 'result')!;
    assert.deepEqual(result.score, { home: 2, away: 2 });
    assert.equal(result.winner, 'home');
    assert.deepEqual(result.period_scores, [
      { period: '1H', home: 0, away: 1 },
      { period: '2H', home: 1, away: 0 },
      { period: 'ET', home: 1, away: 1 },
      { period: 'PEN', home: 4, away: 3 },
    ]);
  });

  it('leaves out the half-time score and period scores when a scoring game has no HT score', () => {
    const messages = convertOpenfootball(season('English Premier League 2024/25', [match({ score: { ft: [2, 1] } })]));
    assert.deepEqual(
      messages.map((m) => (m.type === 'score' ? `score ${m.period}` : m.type)),
      ['fixture', 'markets', 'status', 'score 2H', 'result'],
    );
    const result = messages.find((m): m is ResultMessage => m.type === 'result')!;
    assert.deepEqual(result.period_scores, []);
  });

  const malformed: Array<[string, unknown, RegExp]> = [
    ['not an object', [1], /file must be a JSON object/],
    ['no matches array', { name: 'English Premier League 2024/25' }, /matches must be an array/],
    ['no name', { matches: [] }, /name must be a non-empty string/],
    [
      'a bad date',
      season('English Premier League 2024/25', [match({ date: '17/08/2024' })]),
      /matches\[0\]\.date must be YYYY-MM-DD/,
    ],
    [
      'a bad time',
      season('English Premier League 2024/25', [match({ time: '3pm' })]),
      /matches\[0\]\.time must be HH:MM/,
    ],
    [
      'a missing team',
      season('English Premier League 2024/25', [match({ team2: '' })]),
      /matches\[0\]\.team2 must be a non-empty string/,
    ],
    [
      'a score that is not a pair',
      season('English Premier League 2024/25', [match({ score: { ft: [1] } })]),
      /matches\[0\]\.score\.ft must be a \[home, away\] pair/,
    ],
    [
      'negative goals',
      season('English Premier League 2024/25', [match({ score: { ft: [1, -1] } })]),
      /matches\[0\]\.score\.ft must hold two non-negative integers/,
    ],
  ];
  for (const [name, input, expected] of malformed) {
    it(`rejects a file with ${name}`, () => {
      assert.throws(() => convertOpenfootball(input), expected);
    });
  }
});
