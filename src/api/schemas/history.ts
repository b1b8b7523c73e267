// TypeBox schemas of the odds history: a page of changes, and the odds payload at an instant.
import { Type } from 'typebox';
import { OddsFormatSchema, OddsValueSchema } from './common.js';
import { EventStatusSchema, MarketSchema } from './events.js';

export const OddsChangeSchema = Type.Object(
  {
    market_id: Type.Integer(),
    selection_id: Type.Integer(),
    odds: OddsValueSchema,
    is_locked: Type.Boolean(),
    at: Type.String({ format: 'date-time', description: 'world time of the change' }),
  },
  { $id: 'OddsHistoryEntry' },
);

export const OddsHistorySchema = Type.Object(
  {
    event_id: Type.String(),
    odds_format: OddsFormatSchema,
    history: Type.Array(OddsChangeSchema, { description: 'oldest first' }),
    limit: Type.Integer(),
    has_more: Type.Boolean(),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'OddsHistoryPage' },
);

export const OddsAtSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Union([EventStatusSchema], { description: 'the event status now' }),
    odds_format: OddsFormatSchema,
    markets: Type.Array(MarketSchema, {
      description: 'markets with a price by `at`, each selection at its last price then',
    }),
    updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'the last change at or before `at` (null: nothing was priced by then)',
    }),
    at: Type.String({ format: 'date-time' }),
  },
  { $id: 'EventOddsAt' },
);
