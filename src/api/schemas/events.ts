// TypeBox schemas of the event resources: list item, detail, odds payload, result, batch.
import { Type } from 'typebox';
import {
  DecidedBySchema,
  OddsFormatSchema,
  OddsValueSchema,
  PeriodScoreSchema,
  ScoreSchema,
  StringEnum,
  WinnerSchema,
} from './common.js';

// The lists live in the domain (one place): the schemas, the stream and the tests take them from there.
export { EVENT_STATUSES, RESULT_STATUSES } from '../../domain/types.js';
import { EVENT_STATUSES, RESULT_STATUSES } from '../../domain/types.js';

export const EventStatusSchema = StringEnum(EVENT_STATUSES, {
  $id: 'EventStatus',
  description: 'status of an event (prematch is the contract\'s "upcoming")',
});

export const TeamSideSchema = Type.Union([Type.Literal('home'), Type.Literal('away'), Type.Null()]);

export const OutcomeSchema = Type.Object(
  {
    selection_id: Type.Integer(),
    code: Type.String({ description: 'canonical outcome code (home, draw, over, 2-1…)' }),
    label: Type.String(),
    odds: OddsValueSchema,
    is_locked: Type.Boolean(),
    team_side: TeamSideSchema,
    opening_odds: Type.Union([OddsValueSchema], { description: 'the first price of the selection' }),
    closing_odds: Type.Union([OddsValueSchema, Type.Null()], {
      description: 'the last prematch price, once the event has gone live (null before, or for a market added live)',
    }),
  },
  { $id: 'Outcome' },
);

export const MarketSchema = Type.Object(
  {
    market_id: Type.Integer(),
    key: Type.String({ description: 'family[@period][:line], e.g. asian_handicap:-0.25' }),
    name: Type.String(),
    outcomes: Type.Array(OutcomeSchema),
  },
  { $id: 'Market' },
);

export const EventSportSchema = Type.Object({ key: Type.String(), name: Type.String() }, { $id: 'EventSport' });
export const EventLeagueSchema = Type.Object(
  { slug: Type.String(), name: Type.String(), country: Type.String() },
  { $id: 'EventLeague' },
);
export const MainOddsSchema = Type.Object(
  { home: OddsValueSchema, draw: OddsValueSchema, away: OddsValueSchema },
  { $id: 'MainOdds', description: 'prices of the main market (1x2 or moneyline); null where there is none' },
);

const eventItemFields = {
  id: Type.String(),
  sport: EventSportSchema,
  league: EventLeagueSchema,
  home_team: Type.String(),
  away_team: Type.String(),
  home_logo: Type.String({ format: 'uri' }),
  away_logo: Type.String({ format: 'uri' }),
  status: EventStatusSchema,
  start_time: Type.String({ format: 'date-time' }),
  score: ScoreSchema,
  clock: Type.Union([Type.String(), Type.Null()], {
    description: 'null before the start; "" once started for sports without a clock',
  }),
  period: Type.String({ description: 'empty string before kick-off' }),
  odds: MainOddsSchema,
  odds_format: OddsFormatSchema,
  markets_count: Type.Integer({ description: 'markets with at least one selection open for betting' }),
  winner: WinnerSchema,
  decided_by: DecidedBySchema,
  updated_at: Type.String({ format: 'date-time' }),
};

export const EventItemSchema = Type.Object(eventItemFields, { $id: 'Event' });

export const EventListSchema = Type.Object(
  {
    events: Type.Array(EventItemSchema),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
  },
  { $id: 'EventList' },
);

export const FeaturedEventListSchema = Type.Object(
  { events: Type.Array(EventItemSchema), total: Type.Integer() },
  { $id: 'FeaturedEventList' },
);

export const ScoreboardSchema = Type.Object(
  {
    headers: Type.Array(Type.String()),
    home: Type.Array(Type.Unknown()),
    away: Type.Array(Type.Unknown()),
  },
  { $id: 'Scoreboard' },
);

export const EventDetailSchema = Type.Object(
  {
    ...eventItemFields,
    commence_time: Type.String({ format: 'date-time' }),
    markets: Type.Array(MarketSchema),
    sport_data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    scoreboard: Type.Union([ScoreboardSchema, Type.Null()]),
    period_scores: Type.Array(PeriodScoreSchema),
  },
  { $id: 'EventDetail' },
);

export const OddsPayloadSchema = Type.Object(
  {
    id: Type.String(),
    status: EventStatusSchema,
    odds_format: OddsFormatSchema,
    markets: Type.Array(MarketSchema),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'EventOdds' },
);

export const EventResultSchema = Type.Object(
  {
    id: Type.String(),
    status: StringEnum(RESULT_STATUSES, { description: 'not_ended until the game has a final status' }),
    score: ScoreSchema,
    ended_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    period_scores: Type.Array(PeriodScoreSchema),
    winner: WinnerSchema,
    decided_by: DecidedBySchema,
  },
  { $id: 'EventResult' },
);

export const BatchBodySchema = Type.Object(
  {
    ids: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), {
      minItems: 1,
      maxItems: 20,
      description: '1 to 20 event ids',
    }),
  },
  { $id: 'BatchRequest' },
);

export const BatchEventSchema = Type.Object(
  { ...eventItemFields, markets: Type.Array(MarketSchema) },
  { $id: 'BatchEvent', description: 'the list item plus every market in full' },
);

export const BatchResponseSchema = Type.Object(
  {
    events: Type.Record(Type.String(), BatchEventSchema, { description: 'by event id; ids not found are absent' }),
    found: Type.Integer(),
    requested: Type.Integer(),
  },
  { $id: 'BatchResponse' },
);
