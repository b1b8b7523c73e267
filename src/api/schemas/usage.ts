// TypeBox schemas of a key's usage (GET /v1/usage) and its warnings (GET /v1/usage/warnings).
import { Type } from 'typebox';
import { StringEnum } from './common.js';

const Limit = (description: string) =>
  Type.Union([Type.Integer(), Type.Null()], { description: `${description}; null when the plan has no such limit` });

export const UsageSchema = Type.Object(
  {
    plan: Type.String({ description: 'plan of the calling key' }),
    limits: Type.Object({
      per_second: Limit('requests per second'),
      per_month: Limit('requests per calendar month (UTC)'),
    }),
    current: Type.Object({
      today: Type.Integer({ description: 'counted requests today (UTC), this one included' }),
      this_month: Type.Integer({ description: 'counted requests this calendar month (UTC), this one included' }),
      month_remaining: Type.Union([Type.Integer(), Type.Null()], { description: 'null without a monthly quota' }),
      month_percent: Type.Number({ description: 'share of the monthly quota used, 0-100, 2 decimals' }),
      errors_today: Type.Integer({ description: 'counted requests today answered 4xx/5xx' }),
    }),
    daily: Type.Array(
      Type.Object(
        {
          date: Type.String({ format: 'date', description: 'YYYY-MM-DD (UTC)' }),
          requests: Type.Integer(),
          errors: Type.Integer(),
        },
        { $id: 'UsageDay' },
      ),
      { description: 'every day of the month so far, oldest first' },
    ),
  },
  { $id: 'Usage' },
);

export const WarningSchema = Type.Object(
  {
    level: StringEnum(['info', 'warning', 'critical', 'blocked'] as const),
    message: Type.String(),
    percent: Type.Optional(Type.Number({ description: 'share of the monthly quota used (quota warnings)' })),
  },
  { $id: 'UsageWarning' },
);

export const WarningsSchema = Type.Object({ warnings: Type.Array(WarningSchema) }, { $id: 'UsageWarnings' });
