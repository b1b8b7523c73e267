// TypeBox schemas of the event resources: list item, detail, odds payload, result, batch.
import { Type } from 'typebox';
import { OddsValueSchema, ScoreSchema } from './common.js';

const OutcomeSchema = Type.Object({
  selection_id: Type.Integer(),
  code: Type.String({ description: 'canonical outcome code (home, draw, over, 2-1…)' }),
  label: Type.String(),
  odds: OddsValueSchema,
  is_locked: Type.Boolean(),
  team_side: Type.Union([Type.Literal('home'), Type.Literal('away'), Type.Null()]),
  opening_odds: Type.Union([OddsValueSchema], { description: 'the first price of the selection' }),
  closing_odds: Type.Union([OddsValueSchema, Type.Null()], {
    description: 'the last prematch price, once the event has gone live (null before, or for a market added live)',
  }),
});

export const MarketSchema = Type.Object({
  market_id: Type.Integer(),
  key: Type.String({ description: 'family[@period][:line], e.g. asian_handicap:-0.25' }),
  name: Type.String(),
  outcomes: Type.Array(OutcomeSchema),
});

const eventItemFields = {
  id: Type.String(),
  sport: Type.Object({ key: Type.String(), name: Type.String() }),
  league: Type.Object({ slug: Type.String(), name: Type.String(), country: Type.String() }),
  home_team: Type.String(),
  away_team: Type.String(),
  home_logo: Type.String({ format: 'uri' }),
  away_logo: Type.String({ format: 'uri' }),
  status: Type.String({
    description:
      'prematch, live, ended, cancelled, postponed, suspended, delayed, interrupted, abandoned, retired, walkover',
  }),
  start_time: Type.String({ format: 'date-time' }),
  score: ScoreSchema,
  clock: Type.Union([Type.String(), Type.Null()]),
  period: Type.String({ description: 'empty string before kick-off' }),
  odds: Type.Object({ home: OddsValueSchema, draw: OddsValueSchema, away: OddsValueSchema }),
  odds_format: Type.String(),
  markets_count: Type.Integer({ description: 'markets with at least one selection open for betting' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const EventItemSchema = Type.Object(eventItemFields);

export const EventListSchema = Type.Object({
  events: Type.Array(EventItemSchema),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const EventDetailSchema = Type.Object({
  ...eventItemFields,
  commence_time: Type.String({ format: 'date-time' }),
  markets: Type.Array(MarketSchema),
  sport_data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  scoreboard: Type.Union([
    Type.Object({
      headers: Type.Array(Type.String()),
      home: Type.Array(Type.Unknown()),
      away: Type.Array(Type.Unknown()),
    }),
    Type.Null(),
  ]),
  period_scores: Type.Array(Type.Object({ period: Type.String(), home: Type.Integer(), away: Type.Integer() })),
});

export const OddsPayloadSchema = Type.Object({
  id: Type.String(),
  status: Type.String(),
  odds_format: Type.String(),
  markets: Type.Array(MarketSchema),
  updated_at: Type.String({ format: 'date-time' }),
});

export const EventResultSchema = Type.Object({
  id: Type.String(),
  status: Type.String({
    description:
      'ended, not_ended, postponed, delayed, cancelled, abandoned, retired, suspended, interrupted, walkover',
  }),
  score: ScoreSchema,
  ended_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  period_scores: Type.Array(Type.Object({ period: Type.String(), home: Type.Integer(), away: Type.Integer() })),
  winner: Type.Union([Type.Literal('home'), Type.Literal('away'), Type.Null()]),
});

export const BatchBodySchema = Type.Object({
  ids: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), {
    minItems: 1,
    maxItems: 20,
    description: '1 to 20 event ids',
  }),
});

export const BatchResponseSchema = Type.Object({
  events: Type.Record(Type.String(), Type.Object({ ...eventItemFields, markets: Type.Array(MarketSchema) })),
  found: Type.Integer(),
  requested: Type.Integer(),
});
